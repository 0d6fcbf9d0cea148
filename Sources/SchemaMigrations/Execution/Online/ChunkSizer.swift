#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The rows of the next chunk, adapted after each to the time the last ones held the lock.
///
/// A chunk's lock time has three parts, each measured directly:
/// - the row work (the copy, write or delete statement), proportional to its rows;
/// - the commit, which writes the pages the chunk dirtied (more when its rows land all over an
///   index) and, in rollback-journal mode or with `synchronous = FULL`, flushes the journal and
///   the file: part of it grows with the rows and part of it (the flushes) does not. The two
///   are told apart by a line fitted through the last chunks' commit times against their rows
///   (chunks differ in size as the sizer adapts); until the chunks differ enough to fit it,
///   the whole commit counts as growing with the rows;
/// - the rest of the transaction (its begin, bookkeeping), fixed.
///
/// The next chunk gets the rows whose work fills what the target leaves beyond the fixed parts.
/// When the fixed parts alone take longer than the target (a slow disk's flush), shrinking
/// chunks cannot help: they then aim at as much row work again as the fixed parts, so the copy
/// keeps moving instead of falling to a row a chunk. A chunk grows by at most half again and
/// shrinks to no less than a quarter, so one unusual chunk cannot swing the next far.
struct ChunkSizer {
    /// The first chunk's rows: small, so a slow machine learns its pace without a long stall.
    var rows = 200
    /// The lock time each chunk aims at, in seconds.
    let target: TimeInterval
    /// The smoothed fixed time of a chunk's transaction besides its commit, whatever its rows.
    private(set) var fixedCost: TimeInterval?
    /// The smoothed time of one row's statement work.
    private(set) var rowCost: TimeInterval?
    /// The commit's time against the chunk's rows.
    private(set) var commit = CommitFit()
    /// No chunk is larger, whatever the target.
    static let maximumRows = 1_000_000
    /// The weight of the newest chunk in the smoothed costs.
    static let newestWeight = 0.5

    init(target: TimeInterval) { self.target = target }

    /// Records a chunk of `done` rows whose statement took `rowTime` seconds, whose commit took
    /// `commitTime` and whose transaction's other work took `fixedTime`, and sizes the next.
    mutating func record(rows done: Int, rowTime: TimeInterval, commitTime: TimeInterval, fixedTime: TimeInterval) {
        let weight = Self.newestWeight
        let fixed = fixedCost.map { $0 + weight * (max(0, fixedTime) - $0) } ?? max(0, fixedTime)
        fixedCost = fixed
        if done > 0 {
            let perRow = max(0, rowTime) / Double(done)
            rowCost = rowCost.map { $0 + weight * (perRow - $0) } ?? perRow
            commit.add(rows: Double(done), seconds: max(0, commitTime))
        }
        let fixedParts = fixed + commit.fixed
        let wanted = max(target - fixedParts, fixedParts)
        let perRow = rowCost.map { $0 + commit.perRow }
        let fitting = perRow.map { $0 > 0 ? wanted / $0 : Double(Self.maximumRows) } ?? Double(done) * 1.5
        let next = min(Double(done) * 1.5, max(Double(done) / 4, fitting))
        rows = min(Self.maximumRows, max(1, Int(next.rounded())))
    }
}

/// A commit's time as a fixed part plus a part per row, from the last chunks' (rows, seconds):
/// the slope is the median of the slopes between chunks of different sizes, the fixed part the
/// median of what each commit took beyond its rows' part (Theil–Sen). A commit the disk stalled
/// is one sample among several and moves neither median; neither part is ever negative.
struct CommitFit {
    /// How many of the last chunks count.
    static let window = 9
    /// Two chunks whose sizes differ by less than this fraction say nothing about what a size costs.
    static let distinctSizes = 0.1
    private var samples: [(rows: Double, seconds: Double)] = []
    /// The seconds every commit takes, whatever its rows.
    private(set) var fixed: TimeInterval = 0
    /// The seconds a commit takes for each row.
    private(set) var perRow: TimeInterval = 0

    mutating func add(rows: Double, seconds: Double) {
        samples.append((rows, seconds))
        if samples.count > Self.window { samples.removeFirst() }
        var slopes: [Double] = []
        for (i, a) in samples.enumerated() {
            for b in samples[(i + 1)...] where abs(a.rows - b.rows) > Self.distinctSizes * max(a.rows, b.rows) {
                slopes.append((a.seconds - b.seconds) / (a.rows - b.rows))
            }
        }
        if slopes.isEmpty {
            // One size so far: the fixed part found before stands as far as these commits allow,
            // the rest is per row (at first, the whole commit).
            fixed = min(fixed, Self.median(samples.map(\.seconds)))
        } else {
            let slope = max(0, Self.median(slopes))
            fixed = max(0, Self.median(samples.map { $0.seconds - slope * $0.rows }))
        }
        perRow = max(0, Self.median(samples.map { ($0.seconds - fixed) / $0.rows }))
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
