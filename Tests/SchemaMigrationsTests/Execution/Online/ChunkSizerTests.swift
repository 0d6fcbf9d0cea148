import Testing

@testable import SchemaMigrations

/// The online copy's chunk size against simulated machines: a chunk's statement takes a time per
/// row, its commit a fixed time (its flushes) plus a time per row (the pages it writes), and the
/// rest of its transaction a fixed time.
@Suite struct ChunkSizerTests {
    struct Machine {
        var perRow = 0.000_002
        var commitFlush = 0.0
        var commitPerRow = 0.0
        var other = 0.0002
        func held(_ rows: Int) -> Double { other + commitFlush + (perRow + commitPerRow) * Double(rows) }
    }

    /// The chunk size after `chunks` chunks on `machine`, and how long such a chunk holds the lock.
    static func settle(target: Double, _ machine: Machine, chunks: Int = 60) -> (rows: Int, held: Double) {
        var sizer = ChunkSizer(target: target)
        for _ in 0..<chunks {
            let rows = Double(sizer.rows)
            sizer.record(
                rows: sizer.rows, rowTime: machine.perRow * rows,
                commitTime: machine.commitFlush + machine.commitPerRow * rows, fixedTime: machine.other)
        }
        return (sizer.rows, machine.held(sizer.rows))
    }

    @Test func onAFastDiskChunksGrowToTheTarget() {
        let (rows, held) = Self.settle(target: 0.020, Machine(commitFlush: 0.0008))
        #expect(held <= 0.020 * 1.3 && held >= 0.020 * 0.7, "\(rows) rows hold the lock \(held) s")
    }

    /// In WAL mode a commit writes the chunk's pages and flushes nothing: its time grows with the
    /// rows, and chunks settle where statement and commit together fill the target.
    @Test func aCommitThatGrowsWithTheRowsCountsAsRowWork() {
        let (rows, held) = Self.settle(target: 0.006, Machine(commitPerRow: 0.000_004))
        #expect(held <= 0.006 * 1.3 && held >= 0.006 * 0.7, "\(rows) rows hold the lock \(held) s")
    }

    /// A commit's flush alone slower than the target (a rollback journal on a slow disk): chunks
    /// do not fall to a row each, the copy moves as many rows a chunk as one flush's time allows.
    @Test(arguments: [0.0, 0.000_001])
    func whenACommitsFlushAloneTakesLongerThanTheTargetChunksDoNotCollapse(commitPerRow: Double) {
        let machine = Machine(commitFlush: 0.010, commitPerRow: commitPerRow)
        let (rows, held) = Self.settle(target: 0.001, machine)
        #expect(rows >= 1_000, "\(rows) rows hold the lock \(held) s")
        #expect(held <= (0.010 + 0.0002) * 2 * 1.3, "\(rows) rows hold the lock \(held) s")
    }

    /// Commits whose time jumps from chunk to chunk (a disk that stalls now and then) keep the
    /// chunks within a few times the target: no stall makes the sizer take the commit for free.
    @Test func noisyCommitsKeepChunksNearTheTarget() {
        var sizer = ChunkSizer(target: 0.006)
        var random = SeededGenerator(seed: 3)
        var largest = 0.0
        let machine = Machine(commitPerRow: 0.000_004)
        for chunk in 0..<400 {
            let rows = Double(sizer.rows)
            let stall = Double.random(in: 0...1, using: &random) < 0.1 ? Double.random(in: 0...0.05, using: &random) : 0
            if chunk > 40 { largest = max(largest, machine.held(sizer.rows)) }
            sizer.record(
                rows: sizer.rows, rowTime: machine.perRow * rows, commitTime: machine.commitPerRow * rows + stall,
                fixedTime: machine.other)
        }
        #expect(largest <= 0.006 * 3, "a chunk held the lock \(largest) s without a stall")
    }

    /// One chunk whose rows went unusually fast grows the next by half at most: the next chunk
    /// never holds the lock for twice the target because of one lucky measurement.
    @Test func oneQuickChunkDoesNotDoubleTheNext() {
        var sizer = ChunkSizer(target: 0.008)
        for _ in 0..<30 {
            sizer.record(rows: sizer.rows, rowTime: 0.000_001 * Double(sizer.rows), commitTime: 0, fixedTime: 0.0005)
        }
        let settled = sizer.rows
        #expect(abs(Double(settled) * 0.000_001 + 0.0005 - 0.008) < 0.001, "\(settled) rows")
        sizer.record(rows: settled, rowTime: 0.000_000_1 * Double(settled), commitTime: 0, fixedTime: 0.0005)
        #expect(sizer.rows <= settled * 3 / 2 + 1, "\(sizer.rows) rows after \(settled)")
    }

    @Test func aSlowMachineShrinksTheFirstChunk() {
        let (rows, held) = Self.settle(target: 0.020, Machine(perRow: 0.001, commitFlush: 0.0008))
        #expect(rows < 200 && held <= 0.020 * 1.3, "\(rows) rows hold the lock \(held) s")
    }

    /// The commit's line: a fixed flush and a cost per row are told apart once chunks differ in size.
    @Test func theCommitsFixedAndPerRowPartsAreToldApart() {
        var fit = CommitFit()
        for rows in [200.0, 300, 450, 300, 200, 120] { fit.add(rows: rows, seconds: 0.004 + 0.000_01 * rows) }
        #expect(abs(fit.fixed - 0.004) < 0.000_01 && abs(fit.perRow - 0.000_01) < 0.000_000_1)
        var same = CommitFit()
        for _ in 0..<5 { same.add(rows: 100, seconds: 0.002) }
        #expect(same.fixed == 0 && abs(same.perRow - 0.000_02) < 1e-12, "one size: all per row")
    }
}
