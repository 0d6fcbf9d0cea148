#if compiler(>=6.2)
    /// Makes the metatypes of declaration protocols `Sendable`, so a Swift 6 package can store
    /// `[any PersistentModel.Type]` in a `static let` without a warning. Not public API.
    public protocol _SchemaMigrationsSendableMetatype: SendableMetatype {}
#else
    /// Before Swift 6.2 every metatype is `Sendable`. Not public API.
    public protocol _SchemaMigrationsSendableMetatype {}
#endif
