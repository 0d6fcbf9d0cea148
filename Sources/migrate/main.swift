import MigrateCommand

// migrate: the command for deploy pipelines, with JSON plan directories (--plan DIR).
// An app with custom stages embeds MigrateCommand in an executable of its own instead.
MigrateCommand.main()
