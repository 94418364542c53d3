import Testing
@testable import MediaFormats

@Suite("ID3v2 on hostile input")
struct ID3HostileInputTests {
    @Test("every truncation throws instead of trapping", arguments: [UInt8(3), 4])
    func rejectsEveryTruncation(version: UInt8) {
        let bytes = sampleTag(majorVersion: version).serialized()
        for length in 0..<bytes.count {
            #expect(throws: ID3Error.self) { try ID3Tag.parse(bytes[0..<length]) }
        }
    }

    @Test("a tag size claiming 256 MiB on 20 bytes is reported as truncated")
    func rejectsLyingTagSize() {
        let bytes: [UInt8] = Array("ID3".utf8) + [4, 0, 0, 0x7F, 0x7F, 0x7F, 0x7F] + [UInt8](repeating: 0, count: 10)
        #expect(throws: ID3Error.truncated(declared: 10 + 0x0FFF_FFFF, available: 20)) { try ID3Tag.parse(bytes[...]) }
    }

    @Test("a frame size claiming 256 MiB inside a small tag is reported, not allocated")
    func rejectsLyingFrameSize() {
        let frame = Array("APIC".utf8) + [0x7F, 0x7F, 0x7F, 0x7F, 0, 0] + [3, 0]
        let bytes = handBuiltTag(major: 4, flags: 0, body: frame)
        #expect(throws: ID3Error.frameOverrunsTag(id: "APIC", declared: 0x0FFF_FFFF, remaining: 2)) {
            try ID3Tag.parse(bytes[...])
        }
        let v3frame = Array("APIC".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0, 0] + [3, 0]
        #expect(throws: ID3Error.self) { try ID3Tag.parse(handBuiltTag(major: 3, flags: 0, body: v3frame)[...]) }
    }

    @Test("an extended header larger than the tag is reported")
    func rejectsLyingExtendedHeader() {
        let v4 = handBuiltTag(major: 4, flags: 0x40, body: [0x7F, 0x7F, 0x7F, 0x7F, 1, 0])
        #expect(throws: ID3Error.malformedExtendedHeader(size: 0x0FFF_FFFF)) { try ID3Tag.parse(v4[...]) }
        let v3 = handBuiltTag(major: 3, flags: 0x40, body: [0xFF, 0xFF, 0xFF, 0xFF, 0, 0])
        #expect(throws: ID3Error.malformedExtendedHeader(size: 0xFFFF_FFFF)) { try ID3Tag.parse(v3[...]) }
    }

    @Test("every single-bit flip either parses or throws", arguments: [UInt8(3), 4])
    func survivesBitFlips(version: UInt8) {
        let bytes = sampleTag(majorVersion: version).serialized()
        var outcomes = (parsed: 0, failed: 0)
        for index in bytes.indices {
            for bit in 0..<8 {
                var damaged = bytes
                damaged[index] ^= 1 << bit
                do {
                    let (tag, count) = try ID3Tag.parse(damaged[...])
                    #expect(count <= damaged.count)
                    _ = tag.serialized()
                    outcomes.parsed += 1
                } catch {
                    #expect(!error.description.isEmpty)
                    outcomes.failed += 1
                }
            }
        }
        #expect(outcomes.parsed + outcomes.failed == bytes.count * 8)
        #expect(outcomes.failed > 0)
    }

    @Test("text with a bad encoding byte keeps the frame as unknown")
    func keepsUndecodableFrames() throws {
        let frame = frameBytes(id: "TIT2", size: 3, synchsafe: true, body: [9, 0x41, 0x42])
        let (tag, _) = try ID3Tag.parse(handBuiltTag(major: 4, flags: 0, body: frame)[...])
        #expect(tag.frames == [.unknown(id: "TIT2", flags: 0, body: [9, 0x41, 0x42])])
    }
}

@Suite("Apple transport stream timestamp PRIV")
struct TransportStreamTimestampTests {
    static let wrapCases: [(input: Int64, expected: Int64)] = [
        (0, 0), (90_000, 90_000), (8_589_934_591, 8_589_934_591),
        (8_589_934_592, 0), (8_589_934_597, 5), (-1, 8_589_934_591),
    ]

    @Test("PTS wraps to 33 bits", arguments: wrapCases)
    func wrapsTo33Bits(input: Int64, expected: Int64) throws {
        let frame = TransportStreamTimestamp.makeFrame(pts90k: input)
        guard case .privateData(let owner, let data) = frame else {
            Issue.record("not a PRIV frame"); return
        }
        #expect(owner == "com.apple.streaming.transportStreamTimestamp")
        #expect(data.count == 8)
        let back = try #require(TransportStreamTimestamp(frame))
        #expect(back.pts90k == expected)
    }

    @Test("reserved high bits are ignored; wrong owner or length is not a timestamp")
    func readsOnlyWellFormedFrames() {
        let owner = TransportStreamTimestamp.owner
        #expect(
            TransportStreamTimestamp(.privateData(owner: owner, data: [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 7]))?.pts90k
                == 0x1_0000_0007)
        #expect(TransportStreamTimestamp(.privateData(owner: owner, data: [0, 0, 0, 7])) == nil)
        #expect(TransportStreamTimestamp(.privateData(owner: "com.example", data: [0, 0, 0, 0, 0, 0, 0, 7])) == nil)
    }
}
