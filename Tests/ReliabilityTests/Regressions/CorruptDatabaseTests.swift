import Foundation
import Testing
@testable import SchemaMigrations

extension Reliability.Regressions {
    /// Found by the database file fuzzer: a database with a damaged page was migrated as if it
    /// were sound: rows in the damaged pages were silently not copied, or the migration
    /// "succeeded" and left a file that could not be read. With one page zeroed at a time, every
    /// migration must now refuse (`notADatabase`, file untouched) or keep every row, soundly.
    @Test func aDatabaseWithADamagedPageIsRefusedUntouched() throws {
        let scratch = Scratch("regression")
        let pristine = scratch.url("pristine.sqlite")
        try FaultFixture.populate(pristine, wal: false)
        let rows = try DatabaseState.read(pristine, plan: FaultFixture.planName).rows
        let bytes = [UInt8](try Data(contentsOf: pristine))
        var refused = 0
        for page in 1..<(bytes.count / 4096) {
            let url = scratch.url("page-\(page).sqlite")
            var damaged = bytes
            for i in page * 4096..<(page + 1) * 4096 { damaged[i] = 0 }
            try Data(damaged).write(to: url)
            do {
                try FaultFixture.migrator().migrate(databaseAt: url)
                let after = try? DatabaseState.read(url, plan: FaultFixture.planName)
                #expect(after?.integrity == "ok" && after?.rows == rows, "page \(page) zeroed: migrated to \(after?.description ?? "a file that cannot be read"), had \(rows) rows")
            } catch let error as MigrationError {
                refused += 1
                #expect(try Data(contentsOf: url) == Data(damaged), "page \(page) zeroed: \(error.code), but the file changed")
            }
        }
        #expect(refused > 0)
    }
}
