import Foundation

/// How much the reliability suite runs, and from which seed: quick inside `swift test`, long with
/// `RELIABILITY_LONG=1` (RELIABILITY.md, "How to run it"). Every count can be set on its own.
///
/// | Variable | Quick | Long |
/// |---|---|---|
/// | `RELIABILITY_SEED` | random, printed | random, printed |
/// | `RELIABILITY_KILLS` | 10 | 100 |
/// | `RELIABILITY_FAULT_POINTS` (per kind and mode; 0 = every N, transient and persistent) | 8 | 0 |
/// | `RELIABILITY_FUZZ_CASES` (snapshots; database files get half) | 300 | 6000 |
/// | `RELIABILITY_PROPERTY_CASES` | 50 | 5000 |
/// | `RELIABILITY_ONLINE_CASES` (online vs offline with the app's writes) | 40 | 1000 |
/// | `RELIABILITY_REVERSAL_CASES` (property plans forward, then back to V1) | 12 | 1000 |
struct ReliabilityConfig: Sendable {
    /// True with `RELIABILITY_LONG=1`.
    var long: Bool
    /// The seed every family derives its random numbers from.
    var seed: UInt64
    /// SIGKILLs of a migrating child process.
    var kills: Int
    /// Fault points sampled per kind of call and journal mode; 0 sweeps every N.
    var faultPoints: Int
    /// Mutated schema snapshots; mutated database files are half as many.
    var fuzzCases: Int
    /// Random schemas, changes and data migrated and compared with the reference model.
    var propertyCases: Int
    /// Random plans migrated online while the application writes, and offline with the same writes.
    var onlineCases: Int
    /// The property family's random plans migrated forward, then back to their first version.
    var reversalCases: Int

    static let current = ReliabilityConfig(environment: ProcessInfo.processInfo.environment)

    init(environment: [String: String]) {
        func number(_ name: String, _ quick: Int, _ long: Int, isLong: Bool) -> Int {
            environment[name].flatMap { Int($0) } ?? (isLong ? long : quick)
        }
        let isLong = environment["RELIABILITY_LONG"].map { $0 == "1" || $0.lowercased() == "true" } ?? false
        self.long = isLong
        self.seed = environment["RELIABILITY_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...999_999)
        self.kills = number("RELIABILITY_KILLS", 10, 100, isLong: isLong)
        self.faultPoints = number("RELIABILITY_FAULT_POINTS", 8, 0, isLong: isLong)
        self.fuzzCases = number("RELIABILITY_FUZZ_CASES", 300, 6000, isLong: isLong)
        self.propertyCases = number("RELIABILITY_PROPERTY_CASES", 50, 5000, isLong: isLong)
        self.onlineCases = number("RELIABILITY_ONLINE_CASES", 40, 1000, isLong: isLong)
        self.reversalCases = number("RELIABILITY_REVERSAL_CASES", 12, 1000, isLong: isLong)
    }

    /// The mode and seed, for failure messages: `RELIABILITY_SEED=123 (quick)`.
    var reproduction: String {
        "RELIABILITY_SEED=\(seed)\(long ? " RELIABILITY_LONG=1" : "") (\(long ? "long" : "quick") mode)"
    }

    /// Prints a family's summary line, `reliability[family] …`, which RELIABILITY.md quotes.
    static func summary(_ family: String, _ text: String) {
        print("reliability[\(family)] \(text) seed=\(current.seed) mode=\(current.long ? "long" : "quick")")
    }
}

/// SplitMix64: a small, fast, seedable generator, so a failing case can be replayed from its seed.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// A generator for one case of a family, independent of how many numbers other cases drew.
    init(seed: UInt64, family: String, index: Int) {
        var mixed = seed
        for byte in family.utf8 { mixed = (mixed ^ UInt64(byte)) &* 0x100_0000_01B3 }
        self.init(seed: mixed ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15))
        _ = next()
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
}
