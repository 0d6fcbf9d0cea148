import Testing

/// The reliability suite: crash safety, I/O faults, concurrency, hostile input and property-based
/// migrations. Its families run one at a time (they spawn processes, share the fault VFS's global
/// state, and time kills), each printing a `reliability[family]` summary line.
@Suite(.serialized) struct Reliability {}
