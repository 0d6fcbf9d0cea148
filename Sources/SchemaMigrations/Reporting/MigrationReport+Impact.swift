extension MigrationReport {
    /// What one step would do to the live data, measured by read-only queries during the dry run.
    ///
    /// ```swift
    /// for step in report.stages[0].steps {
    ///     if let impact = step.impact { print(step.step.summary, impact.lines) }
    /// }
    /// ```
    /// Only the first pending stage is measured: later ones would meet data the earlier ones changed.
    public struct Impact: Sendable, Hashable {
        /// How many rows of a column hold something.
        public struct ColumnCount: Sendable, Hashable, Encodable {
            /// `Table.column`, as named now.
            public var column: String
            /// The rows counted.
            public var count: Int64
        }

        /// The NULLs a column becoming NOT NULL would meet.
        public struct Nulls: Sendable, Hashable, Encodable {
            /// The column, as it is named now.
            public var column: String
            /// The rows holding NULL.
            public var count: Int64
            /// The default those rows would take (an SQL literal); nil when there is none, so they
            /// must be filled first (a lightweight stage refuses them; a custom stage's code fills them).
            public var defaultValue: String?
        }

        /// The values a new uniqueness constraint would find shared by more than one row.
        public struct Duplicates: Sendable, Hashable, Encodable {
            /// One value (or combination of values, as an SQL tuple) and how many rows share it.
            public struct SharedValue: Sendable, Hashable, Encodable {
                /// The value as an SQL literal (`'Paris'`), or a tuple of them for several columns.
                public var value: String
                /// How many rows hold it.
                public var rows: Int64
            }

            /// The constrained columns, as the target version names them.
            public var columns: [String]
            /// How many distinct values are shared.
            public var total: Int64
            /// The most shared values, at most ten.
            public var values: [SharedValue]
        }

        /// Rows the step rewrites (a rebuild, a dropped column) or drops (a dropped table).
        public var rows: Int64?
        /// For each column becoming NOT NULL, the NULLs it holds now.
        public var nulls: [Nulls] = []
        /// For each new uniqueness constraint over existing data, the duplicates it meets.
        public var duplicates: [Duplicates] = []
        /// For each column dropped (alone, by a rebuild, or with its table), the rows holding a
        /// non-empty value: data the step loses.
        public var nonEmptyValues: [ColumnCount] = []
        /// For each column that becomes generated, the rows whose stored value differs from the
        /// computed one: values the step replaces.
        public var replacedValues: [ColumnCount] = []

        /// True when nothing was measured.
        public var isEmpty: Bool {
            rows == nil && nulls.isEmpty && duplicates.isEmpty && nonEmptyValues.isEmpty && replacedValues.isEmpty
        }

        /// The values the step loses: in its dropped columns, and stored values it replaces with computed ones.
        public var lostValues: Int64 { (nonEmptyValues + replacedValues).reduce(0) { $0 + $1.count } }

        /// What the step loses, in words: `2 non-empty values`, `1 stored value replaced by computed ones`.
        public var lossDescription: String {
            let replaced = replacedValues.reduce(0) { $0 + $1.count }
            let lost = lostValues - replaced
            return
                ((replaced == 0 || lost > 0 ? [counted(lost, "non-empty value")] : [])
                + (replaced > 0 ? [counted(replaced, "stored value") + " replaced by computed ones"] : [])).joined(
                    separator: ", ")
        }

        /// What happens to values, in words, one line per figure (``rows`` is left to the caller):
        /// `Trip.notes: 3 NULLs take the default ''`, `Trip.legacy: 12 non-empty values lost`.
        public var lines: [String] { lines(showingValues: true) }

        /// ``lines``, with the shared values themselves left out unless `showingValues` (counts stay).
        func lines(showingValues: Bool) -> [String] {
            var lines: [String] = []
            for column in nonEmptyValues where column.count > 0 {
                lines.append("\(column.column): \(counted(column.count, "non-empty value")) lost")
            }
            for column in replacedValues where column.count > 0 {
                lines.append("\(column.column): \(counted(column.count, "stored value")) replaced by computed ones")
            }
            for nulls in self.nulls where nulls.count > 0 {
                lines.append(
                    "\(nulls.column): \(counted(nulls.count, "NULL"))"
                        + (nulls.defaultValue.map { " \(nulls.count == 1 ? "takes" : "take") the default \($0)" }
                            ?? " must be filled before NOT NULL applies"))
            }
            for duplicates in self.duplicates where duplicates.total > 0 {
                let head =
                    "(\(duplicates.columns.joined(separator: ", "))): \(counted(duplicates.total, "value")) shared by several rows"
                guard showingValues else {
                    lines.append(
                        head
                            + " (\(duplicates.values.reduce(0) { $0 + $1.rows }) rows among the \(counted(duplicates.values.count, "most shared value")))"
                    )
                    continue
                }
                let shown = duplicates.values.map { "\($0.value) ×\($0.rows)" }.joined(separator: ", ")
                lines.append(head + ": \(shown)" + (duplicates.total > Int64(duplicates.values.count) ? ", …" : ""))
            }
            return lines
        }
    }
}

extension MigrationReport.Step {
    /// What the step costs, in words: `rewrites rows: 1000`, `schema only, O(1)`.
    var costDescription: String { step.cost.description(rows: rowsAffected) }
}
