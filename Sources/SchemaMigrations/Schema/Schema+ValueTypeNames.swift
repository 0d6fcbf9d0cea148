extension Schema.ValueType {
    /// The Swift type a declaration of this value type writes (`Int`, `Date`, `UUID`…), or nil
    /// for JSON values, whose `Codable` type is not in the schema. Adoption advice and the
    /// scaffold both name types through it.
    var swiftTypeName: String? {
        switch self {
        case .integer: return "Int"
        case .double: return "Double"
        case .bool: return "Bool"
        case .string: return "String"
        case .date: return "Date"
        case .data: return "Data"
        case .uuid: return "UUID"
        case .url: return "URL"
        case .decimal: return "Decimal"
        case .json: return nil
        case .sqliteValue: return "SQLiteValue"
        }
    }
}
