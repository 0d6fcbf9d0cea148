/// One attribute as a stored property: `@Attribute(…)` with one argument function per option,
/// in the order `Attribute.init` takes them, or a plain `var` when it needs none.
extension ModelRendering {
    func declaration(of attribute: Schema.Attribute) -> String {
        let initial = SwiftInitialValue(attribute)
        let type = attribute.valueType.swiftTypeName! + (attribute.isOptional ? "?" : "")
        let options = attributeOptions(attribute)
        let arguments =
            (options.isEmpty ? [] : [options.joined(separator: ", ")])
            + [
                originalName(attribute), hashModifier(attribute), column(attribute), sqlType(attribute),
                references(attribute),
                dateStorage(attribute), check(attribute), collation(attribute), defaultExpression(initial),
                generated(attribute), notNullOnConflict(attribute),
            ].compactMap { $0 }
        let name = names.property(attribute.name, of: entity.name)
        var text = ""
        if !arguments.isEmpty {
            text = "@Attribute(" + arguments.joined(separator: ", ") + ") "
        } else if initial == .none {
            text = "@Attribute "
        }
        text += "var \(name)"
        if case .value(let value) = initial {
            text += Self.typeIsInferred(type, from: value) ? " = \(value)" : ": \(type) = \(value)"
        } else {
            text += ": \(type)"
        }
        return text
    }

    /// Whether Swift infers `type` from the literal `value` alone (`= ""` is a `String`).
    static func typeIsInferred(_ type: String, from value: String) -> Bool {
        switch type {
        case "String": return value.hasPrefix("\"")
        case "Bool": return value == "true" || value == "false"
        case "Int": return Int64(value) != nil
        case "Double": return value.contains(".") && Double(value) != nil
        // `UUID(uuidString: …)!` is a UUID too
        case "Date", "Data", "UUID", "URL", "Decimal": return value.hasPrefix(type + "(")
        default: return false
        }
    }

    // MARK: One function per option

    /// `.primaryKey`, `.autoincrement`, `.unique`, then SwiftData's options as recorded.
    func attributeOptions(_ attribute: Schema.Attribute) -> [String] {
        var options: [String] = []
        if entity.primaryKey == [attribute.name] { options.append(".primaryKey") }
        if entity.primaryKey == [attribute.name], entity.isAutoincrement { options.append(".autoincrement") }
        if entity.indexes.contains(where: { isUniqueAttribute($0) && $0.columns == [attribute.name] }) {
            options.append(".unique")
        }
        return options + attribute.options.map { "." + $0 }
    }

    func originalName(_ attribute: Schema.Attribute) -> String? {
        attribute.originalName.map { "originalName: \(SwiftInitialValue.stringLiteral($0))" }
    }

    func hashModifier(_ attribute: Schema.Attribute) -> String? {
        attribute.hashModifier.map { "hashModifier: \(SwiftInitialValue.stringLiteral($0))" }
    }

    /// `column:` only when the column is not named as the property.
    func column(_ attribute: Schema.Attribute) -> String? {
        property(attribute.name) == attribute.name ? nil : "column: \(SwiftInitialValue.stringLiteral(attribute.name))"
    }

    func sqlType(_ attribute: Schema.Attribute) -> String? {
        attribute.sqlType.map { "sqlType: \(SwiftInitialValue.stringLiteral($0))" }
    }

    /// `references: .to(Artist.self, column: "ArtistId", onDelete: .cascade, onUpdate: .noAction, deferred: true)`,
    /// each argument only when it is not the default.
    func references(_ attribute: Schema.Attribute) -> String? {
        guard let key = attribute.references else { return nil }
        var arguments = [names.type(key.table) + ".self"]
        if let column = key.column { arguments.append("column: \(SwiftInitialValue.stringLiteral(column))") }
        if let action = ForeignKeyReference.Action(rawValue: key.onDelete), action != .noAction {
            arguments.append("onDelete: .\(action)")
        }
        if let action = key.onUpdate.flatMap(ForeignKeyReference.Action.init(rawValue:)) {
            arguments.append("onUpdate: .\(action)")
        }
        if key.isDeferred == true { arguments.append("deferred: true") }
        return "references: .to(\(arguments.joined(separator: ", ")))"
    }

    func dateStorage(_ attribute: Schema.Attribute) -> String? {
        attribute.dateStorage.map { "dateStorage: .\($0.rawValue)" }
    }

    /// `generated: .virtual("price * quantity")` or `.stored(…)`: a column SQLite computes.
    func generated(_ attribute: Schema.Attribute) -> String? {
        attribute.generated.map {
            ($0.storage == .stored ? "generated: .stored(" : "generated: .virtual(")
                + SwiftInitialValue.stringLiteral($0.expression) + ")"
        }
    }

    func check(_ attribute: Schema.Attribute) -> String? {
        attribute.check.map { "check: \(SwiftInitialValue.stringLiteral($0))" }
    }

    func notNullOnConflict(_ attribute: Schema.Attribute) -> String? {
        attribute.notNullOnConflict.map { "notNullOnConflict: .\($0)" }
    }

    func collation(_ attribute: Schema.Attribute) -> String? {
        attribute.collation.map { "collation: \(SwiftInitialValue.stringLiteral($0))" }
    }

    /// A default no Swift value stores as written (`CURRENT_TIMESTAMP`, `0` in a REAL column).
    func defaultExpression(_ initial: SwiftInitialValue) -> String? {
        guard case .expression(let sql) = initial else { return nil }
        return "defaultExpression: \(SwiftInitialValue.stringLiteral(sql))"
    }
}
