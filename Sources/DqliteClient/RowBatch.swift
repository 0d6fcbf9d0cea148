/// Decodes one ROWS response: the column count and names, then rows, then a marker word that
/// says whether the result set is complete or another batch follows.
///
/// Each row is a header of 4-bit type codes (two per byte, padded to a word) followed by the
/// values. The markers are whole words that no row header can equal, since no type code is 0xe
/// or 0xf.
enum RowBatch {
    /// The marker after the last row of a result set.
    static let done: UInt64 = 0xffff_ffff_ffff_ffff
    /// The marker after the last row of a batch when another batch follows.
    static let part: UInt64 = 0xeeee_eeee_eeee_eeee

    static func decode(_ reader: inout WireReader) throws -> Response {
        let columnCount = Int(try reader.uint64())
        var columns: [String] = []
        columns.reserveCapacity(columnCount)
        for _ in 0..<columnCount { columns.append(try reader.text()) }
        var rows: [[DqliteValue]] = []
        while true {
            let next = try reader.peekUInt64()
            if next == done || next == part {
                _ = try reader.uint64()
                return .rows(columns: columns, rows: rows, more: next == part)
            }
            guard columnCount > 0 else { throw reader.malformed("a row without columns") }
            rows.append(try row(&reader, columnCount: columnCount))
        }
    }

    private static func row(_ reader: inout WireReader, columnCount: Int) throws -> [DqliteValue] {
        var types: [UInt8] = []
        types.reserveCapacity(columnCount)
        let headerBytes = (columnCount + 15) / 16 * 8
        for index in 0..<headerBytes {
            let slot = try reader.uint8()
            if 2 * index < columnCount { types.append(slot & 0x0f) }
            if 2 * index + 1 < columnCount { types.append(slot >> 4) }
        }
        var values: [DqliteValue] = []
        values.reserveCapacity(columnCount)
        for code in types {
            switch ValueType(rawValue: code) {
            case .integer, .unixTime: values.append(.integer(try reader.int64()))
            case .float: values.append(.real(try reader.double()))
            case .text, .iso8601: values.append(.text(try reader.text()))
            case .blob: values.append(.blob(try reader.blob()))
            case .null:
                _ = try reader.uint64()
                values.append(.null)
            case .boolean: values.append(.integer(try reader.uint64() == 0 ? 0 : 1))
            case nil: throw reader.malformed("unknown value type \(code)")
            }
        }
        return values
    }
}
