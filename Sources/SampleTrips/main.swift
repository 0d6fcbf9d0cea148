import MigrateCommand
import SampleTripsPlan

// sample-trips: the migrate command embedded with the SampleTrips plan (V1 → V2 custom
// de-duplication → V3 renames), the way an app embeds it, plus `fixture`, which builds a
// populated V1 database to try it on:
//
//   swift run sample-trips fixture --database /tmp/trips.sqlite
//   swift run sample-trips plan --database /tmp/trips.sqlite
//   swift run sample-trips apply --database /tmp/trips.sqlite
//   swift run sample-trips snapshot --output Fixtures/SampleTrips --include-custom-stages   # freezes the released versions

MigrateCommand.main(plan: TripsMigrationPlan.self, extraSubcommands: [FixtureSubcommand.make()])
