import Testing

@testable import SchemaMigrations

/// The online copy's chunk size against simulated machines: a chunk takes a fixed time (its
/// commit's flush) plus a time per row.
@Suite struct ChunkSizerTests {
    /// The chunk sizes after `chunks` chunks on a machine with `fixed` seconds a commit and `perRow` a row.
    static func settle(target: Double, fixed: Double, perRow: Double, chunks: Int = 40) -> (rows: Int, took: Double) {
        var sizer = ChunkSizer(target: target)
        for _ in 0..<chunks {
            sizer.record(rows: sizer.rows, rowTime: perRow * Double(sizer.rows), fixedTime: fixed)
        }
        return (sizer.rows, fixed + perRow * Double(sizer.rows))
    }

    @Test func onAFastDiskChunksGrowToTheTarget() {
        let (rows, took) = Self.settle(target: 0.020, fixed: 0.001, perRow: 0.000_002)
        #expect(took <= 0.020 * 1.3 && took >= 0.020 * 0.5, "\(rows) rows take \(took) s")
    }

    /// A commit alone slower than the target: chunks no longer fall to a row each, the copy moves
    /// as many rows a chunk as one flush's time allows.
    @Test func whenACommitAloneTakesLongerThanTheTargetChunksDoNotCollapse() {
        let (rows, took) = Self.settle(target: 0.002, fixed: 0.010, perRow: 0.000_002)
        #expect(rows >= 2_000, "\(rows) rows take \(took) s")
        #expect(took <= 0.010 * 2 * 1.3, "\(rows) rows take \(took) s")
    }

    /// One chunk whose rows went unusually fast grows the next by half at most: the next chunk
    /// never holds the lock for twice the target because of one lucky measurement.
    @Test func oneQuickChunkDoesNotDoubleTheNext() {
        var sizer = ChunkSizer(target: 0.008)
        for _ in 0..<30 { sizer.record(rows: sizer.rows, rowTime: 0.000_001 * Double(sizer.rows), fixedTime: 0.0005) }
        let settled = sizer.rows
        #expect(abs(Double(settled) * 0.000_001 + 0.0005 - 0.008) < 0.001, "\(settled) rows")
        sizer.record(rows: settled, rowTime: 0.000_000_1 * Double(settled), fixedTime: 0.0005)
        #expect(sizer.rows <= settled * 3 / 2 + 1, "\(sizer.rows) rows after \(settled)")
    }

    @Test func aSlowMachineShrinksTheFirstChunk() {
        let (rows, took) = Self.settle(target: 0.020, fixed: 0.001, perRow: 0.001)
        #expect(rows < 200 && took <= 0.020 * 1.3, "\(rows) rows take \(took) s")
    }
}
