import DqliteTestCluster
import Testing

extension DqliteBinaries {
    /// The reason given to Swift Testing when the cluster tests are skipped.
    static var skipReason: Comment { Comment(rawValue: skipMessage) }
}
