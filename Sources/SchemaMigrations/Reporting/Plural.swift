/// A count with its noun, singular or plural: `1 row`, `3 rows`, `1 value is`, `2 values are`.
///
/// ```swift
/// counted(1, "value")                 // "1 value"
/// counted(2, "entry", "entries")      // "2 entries"
/// ```
func counted<Count: BinaryInteger>(_ count: Count, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
}

/// `is` for one, `are` for several (or none).
func isAre<Count: BinaryInteger>(_ count: Count) -> String { count == 1 ? "is" : "are" }

/// `holds` for one, `hold` for several (or none).
func holds<Count: BinaryInteger>(_ count: Count) -> String { count == 1 ? "holds" : "hold" }
