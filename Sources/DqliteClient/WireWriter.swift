/// Builds a message body: little-endian words, text and blobs padded to 8-byte boundaries.
struct WireWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 64) { bytes.reserveCapacity(capacity) }

    mutating func uint8(_ value: UInt8) { bytes.append(value) }

    mutating func uint32(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func uint64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func int64(_ value: Int64) { uint64(UInt64(bitPattern: value)) }

    mutating func double(_ value: Double) { uint64(value.bitPattern) }

    /// UTF-8, a terminating zero, zeros to the next word.
    mutating func text(_ value: String) {
        bytes.append(contentsOf: value.utf8)
        bytes.append(0)
        pad()
    }

    /// A length word, the bytes, zeros to the next word.
    mutating func blob(_ value: [UInt8]) {
        uint64(UInt64(value.count))
        bytes.append(contentsOf: value)
        pad()
    }

    /// Zeros up to the next 8-byte boundary.
    mutating func pad() {
        while bytes.count % 8 != 0 { bytes.append(0) }
    }

    /// A tuple of parameters (schema 0): a count byte and one type byte per value, padded to a
    /// word, then the values. No parameters: nothing at all.
    mutating func parameters(_ values: [DqliteValue]) {
        guard !values.isEmpty else { return }
        uint8(UInt8(values.count))
        for value in values {
            let type: ValueType
            switch value {
            case .null: type = .null
            case .integer: type = .integer
            case .real: type = .float
            case .text: type = .text
            case .blob: type = .blob
            }
            uint8(type.rawValue)
        }
        pad()
        for value in values {
            switch value {
            case .null: uint64(0)
            case .integer(let integer): int64(integer)
            case .real(let real): double(real)
            case .text(let text): self.text(text)
            case .blob(let blob): self.blob(blob)
            }
        }
    }
}
