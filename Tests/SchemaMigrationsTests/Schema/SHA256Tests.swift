import Testing

@testable import SchemaMigrations

/// Checks `SHA256` against the FIPS 180-2 / NIST CAVP example vectors and `sha256sum` output.
@Suite struct SHA256Tests {
    @Test func emptyMessage() {
        #expect(SHA256.hexDigest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hexDigest([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func abc() {
        #expect(SHA256.hexDigest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func twoBlockMessage448Bits() {
        let message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(message.utf8.count == 56)
        #expect(SHA256.hexDigest(message) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func twoBlockMessage896Bits() {
        let message =
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
            + "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        #expect(message.utf8.count == 112)
        #expect(SHA256.hexDigest(message) == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    @Test func oneMillionA() {
        let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hexDigest(bytes) == expected)
        // Same message through the non-contiguous (byte-by-byte) path.
        #expect(SHA256.hexDigest(repeatElement(UInt8(ascii: "a"), count: 1_000_000)) == expected)
    }

    @Test func rawDigestMatchesHex() {
        let digest = SHA256.hash("abc".utf8)
        #expect(digest.count == 32)
        #expect(Array(digest.prefix(4)) == [0xba, 0x78, 0x16, 0xbf])
        #expect(Array(digest.suffix(4)) == [0xf2, 0x00, 0x15, 0xad])
    }

    /// Lengths around the padding boundary: 55 bytes fit one block, 56 need two, etc.
    /// Expected values computed with `head -c N /dev/zero | tr '\0' a | sha256sum`.
    @Test(arguments: [
        (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
        (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
    ])
    func paddingBoundaries(length: Int, expected: String) {
        let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        #expect(SHA256.hexDigest(bytes) == expected)
        #expect(SHA256.hexDigest(bytes.lazy.map { $0 }) == expected)
    }

    /// Bytes 0, 1, ..., 130; digest from
    /// `python3 -c "import sys; sys.stdout.buffer.write(bytes(range(131)))" | sha256sum`.
    static let message131 = (0..<131).map { UInt8($0) }
    static let digest131 = "3acc128faf01077789746edcfd1051d90bc1591342402d9b3cdd06d7315702a4"

    @Test func oneShot131Bytes() {
        #expect(SHA256.hexDigest(Self.message131) == Self.digest131)
    }

    @Test func incrementalSplitAtEveryOffset() {
        let oneShot = SHA256.hash(Self.message131)
        for split in 0...Self.message131.count {
            var hasher = SHA256()
            hasher.update(Self.message131[..<split])
            hasher.update(Self.message131[split...])
            #expect(hasher.finalize() == oneShot, "split at \(split)")

            // The same split through the non-contiguous path.
            var lazyHasher = SHA256()
            lazyHasher.update(Self.message131[..<split].lazy.map { $0 })
            lazyHasher.update(Self.message131[split...].lazy.map { $0 })
            #expect(lazyHasher.finalize() == oneShot, "lazy split at \(split)")
        }
    }

    @Test func byteAtATimeAndThreeWaySplits() {
        let oneShot = SHA256.hash(Self.message131)
        var hasher = SHA256()
        for byte in Self.message131 { hasher.update([byte]) }
        #expect(hasher.finalize() == oneShot)

        for first in stride(from: 0, through: 131, by: 7) {
            for second in stride(from: first, through: 131, by: 11) {
                var hasher = SHA256()
                hasher.update(Self.message131[..<first])
                hasher.update(Self.message131[first..<second])
                hasher.update(Self.message131[second...])
                #expect(hasher.finalize() == oneShot, "splits at \(first), \(second)")
            }
        }
    }

    @Test func finalizeResetsTheHasher() {
        var hasher = SHA256()
        hasher.update("abc".utf8)
        _ = hasher.finalize()
        hasher.update("abc".utf8)
        #expect(hasher.finalize() == SHA256.hash("abc".utf8))
    }
}
