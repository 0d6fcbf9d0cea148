import SchemaMigrations
import Testing

/// The command writes JSON it read back from a report, with keys added, in the report's own form.
@Suite struct CommandJSONTests {
    @Test func foundationObjectsAreWrittenLikeTheReports() throws {
        var object = CommandJSON.object(
            parsing: #"{"b": [1, 2.5, true, false, null], "a": {"x": "it's \"quoted\"\n"}}"#)
        object["exitStatus"] = 3
        object["ok"] = true
        object["empty"] = [String]()
        #expect(
            CommandJSON.text(object) == """
                {
                  "a": {
                    "x": "it's \\"quoted\\"\\n"
                  },
                  "b": [
                    1,
                    2.5,
                    true,
                    false,
                    null
                  ],
                  "empty": [],
                  "exitStatus": 3,
                  "ok": true
                }

                """)
        #expect(CommandJSON.object(parsing: "[1]").isEmpty)
    }
}
