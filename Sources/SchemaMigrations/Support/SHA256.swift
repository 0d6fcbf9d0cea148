/// A dependency-free implementation of the SHA-256 secure hash algorithm.
///
/// Implements SHA-256 exactly as specified in FIPS 180-4, *Secure Hash Standard*
/// (<https://nvlpubs.nist.gov/nistpubs/FIPS/NIST.FIPS.180-4.pdf>), section 6.2.
/// It is used for content checksums (for example, of schema snapshots) and must not
/// depend on CryptoKit or any platform library, so digests are identical everywhere.
///
/// Use the static helpers for one-shot hashing:
///
/// ```swift
/// SHA256.hexDigest("abc")
/// // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// ```
///
/// or feed data in pieces with the incremental API:
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(Array("ab".utf8))
/// hasher.update(Array("c".utf8))
/// let digest = hasher.finalize() // 32 bytes
/// ```
struct SHA256: Sendable {
    /// The size of one message block in bytes.
    private static let blockSize = 64

    /// Round constants: the first 32 bits of the fractional parts of the cube roots
    /// of the first 64 primes (FIPS 180-4, section 4.2.2).
    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// Initial hash value: the first 32 bits of the fractional parts of the square roots
    /// of the first 8 primes (FIPS 180-4, section 5.3.3).
    private static let initialState: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]

    /// The running hash value H(0)...H(7).
    private var state: [UInt32] = SHA256.initialState
    /// Bytes of a partially filled block, waiting for more input.
    private var buffer: [UInt8] = []
    /// Total number of message bytes consumed so far.
    private var byteCount: UInt64 = 0

    /// Creates a hasher in its initial state, ready to accept input.
    ///
    /// ```swift
    /// var hasher = SHA256()
    /// ```
    ///
    /// - Complexity: O(1)
    init() {
        buffer.reserveCapacity(SHA256.blockSize)
    }

    /// Feeds more message bytes into the hash.
    ///
    /// ```swift
    /// var hasher = SHA256()
    /// hasher.update("hello ".utf8)
    /// hasher.update("world".utf8)
    /// ```
    ///
    /// - Parameter bytes: The next bytes of the message.
    /// - Complexity: O(n), where n is the number of bytes.
    mutating func update<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        // Fast path for contiguous storage ([UInt8], Data, String.UTF8View, ...).
        let handled: Void? = bytes.withContiguousStorageIfAvailable { update(contiguous: $0) }
        guard handled == nil else { return }
        // Otherwise gather the bytes into chunks and take the same path.
        var chunk: [UInt8] = []
        chunk.reserveCapacity(4096)
        for byte in bytes {
            chunk.append(byte)
            if chunk.count == 4096 {
                chunk.withUnsafeBufferPointer { update(contiguous: $0) }
                chunk.removeAll(keepingCapacity: true)
            }
        }
        chunk.withUnsafeBufferPointer { update(contiguous: $0) }
    }

    /// Pads the message, processes the final block(s) and returns the 32-byte digest.
    ///
    /// The hasher is reset afterwards, so it can be reused for a new message.
    ///
    /// ```swift
    /// var hasher = SHA256()
    /// hasher.update("abc".utf8)
    /// let digest = hasher.finalize() // [0xba, 0x78, 0x16, ...]
    /// ```
    ///
    /// - Returns: The 32-byte (256-bit) message digest.
    /// - Complexity: O(1) beyond the input already consumed.
    mutating func finalize() -> [UInt8] {
        let messageBits = (byteCount &+ UInt64(buffer.count)) &* 8
        // Padding (FIPS 180-4, section 5.1.1): a single 1 bit, zeros up to 56 mod 64,
        // then the message length in bits as a 64-bit big-endian integer.
        buffer.append(0x80)
        if buffer.count > SHA256.blockSize - 8 {
            buffer.append(contentsOf: repeatElement(0, count: SHA256.blockSize - buffer.count))
            compressBuffer()
        }
        buffer.append(contentsOf: repeatElement(0, count: SHA256.blockSize - 8 - buffer.count))
        for shift in stride(from: 56, through: 0, by: -8) {
            buffer.append(UInt8(truncatingIfNeeded: messageBits >> UInt64(shift)))
        }
        compressBuffer()

        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for word in state {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        self = SHA256()
        return digest
    }

    /// Computes the SHA-256 digest of a byte sequence in one call.
    ///
    /// ```swift
    /// let digest = SHA256.hash([0x61, 0x62, 0x63]) // 32 bytes
    /// ```
    ///
    /// - Parameter bytes: The complete message.
    /// - Returns: The 32-byte digest.
    /// - Complexity: O(n), where n is the number of bytes.
    static func hash<S: Sequence>(_ bytes: S) -> [UInt8] where S.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Computes the SHA-256 digest of a byte sequence as 64 lowercase hexadecimal characters.
    ///
    /// ```swift
    /// SHA256.hexDigest([UInt8]()) // "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    /// ```
    ///
    /// - Parameter bytes: The complete message.
    /// - Returns: The digest in lowercase hex.
    /// - Complexity: O(n), where n is the number of bytes.
    static func hexDigest<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        let hexDigits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in hash(bytes) {
            hex.append(hexDigits[Int(byte >> 4)])
            hex.append(hexDigits[Int(byte & 0x0f)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// Computes the SHA-256 digest of a string's UTF-8 encoding as lowercase hex.
    ///
    /// ```swift
    /// SHA256.hexDigest("abc") // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    /// ```
    ///
    /// - Parameter string: The message; its UTF-8 bytes are hashed.
    /// - Returns: The digest in lowercase hex.
    /// - Complexity: O(n), where n is the UTF-8 length of the string.
    static func hexDigest(_ string: String) -> String {
        hexDigest(string.utf8)
    }

    // MARK: - Compression

    /// Consumes contiguous input, compressing whole blocks straight from the caller's memory.
    private mutating func update(contiguous input: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        if !buffer.isEmpty {
            let take = min(SHA256.blockSize - buffer.count, input.count)
            buffer.append(contentsOf: input[0..<take])
            offset = take
            guard buffer.count == SHA256.blockSize else { return }
            compressBuffer()
        }
        let wholeBlocks = (input.count - offset) / SHA256.blockSize
        state.withUnsafeMutableBufferPointer { hash in
            for _ in 0..<wholeBlocks {
                let block = UnsafeBufferPointer(rebasing: input[offset..<offset + SHA256.blockSize])
                SHA256.compress(block: block, into: hash)
                offset += SHA256.blockSize
            }
        }
        byteCount &+= UInt64(wholeBlocks * SHA256.blockSize)
        buffer.append(contentsOf: input[offset...])
    }

    /// Processes the full 64-byte `buffer` and empties it.
    private mutating func compressBuffer() {
        buffer.withUnsafeBufferPointer { block in
            state.withUnsafeMutableBufferPointer { hash in
                SHA256.compress(block: block, into: hash)
            }
        }
        byteCount &+= UInt64(SHA256.blockSize)
        buffer.removeAll(keepingCapacity: true)
    }

    /// The SHA-256 compression function (FIPS 180-4, section 6.2.2) for one 512-bit block.
    private static func compress(block: UnsafeBufferPointer<UInt8>, into hash: UnsafeMutableBufferPointer<UInt32>) {
        // Message schedule W0...W63, kept in a fixed-size stack allocation.
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            for t in 0..<16 {
                let i = t * 4
                w[t] =
                    UInt32(block[i]) << 24 | UInt32(block[i + 1]) << 16
                    | UInt32(block[i + 2]) << 8 | UInt32(block[i + 3])
            }
            for t in 16..<64 {
                let s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)
                let s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)
                w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
            }

            var a = hash[0]
            var b = hash[1]
            var c = hash[2]
            var d = hash[3]
            var e = hash[4]
            var f = hash[5]
            var g = hash[6]
            var h = hash[7]
            k.withUnsafeBufferPointer { k in
                for t in 0..<64 {
                    let sigma1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                    let choose = (e & f) ^ (~e & g)
                    let t1 = h &+ sigma1 &+ choose &+ k[t] &+ w[t]
                    let sigma0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    let t2 = sigma0 &+ majority
                    h = g
                    g = f
                    f = e
                    e = d &+ t1
                    d = c
                    c = b
                    b = a
                    a = t1 &+ t2
                }
            }
            hash[0] &+= a
            hash[1] &+= b
            hash[2] &+= c
            hash[3] &+= d
            hash[4] &+= e
            hash[5] &+= f
            hash[6] &+= g
            hash[7] &+= h
        }
    }

    /// Rotates `x` right by `n` bits (the ROTR operation of FIPS 180-4, section 3.2).
    @inline(__always)
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 {
        (x >> n) | (x << (32 &- n))
    }
}
