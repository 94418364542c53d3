import Testing
@testable import MediaFormats

/// The TS scanner fed in pieces (as libavformat reads a segment) finds the packets,
/// continuity gaps and timed-ID3 tags that one walk over the whole bytes finds, wherever the
/// pieces are cut: inside a packet, a PES, a resynchronisation test or the last packet.
@Suite("Scanning a transport stream fed in pieces")
struct TransportStreamScannerTests {
    /// One packet as the walkers see it: where, which, and its header.
    struct Seen: Hashable, CustomStringConvertible {
        var offset, index: Int
        var pid: UInt16
        var counter: UInt8
        var adaptation, payload, start, discontinuity: Bool

        init(offset: Int, index: Int, _ packet: TransportStreamPacket) {
            (self.offset, self.index, pid, counter) = (offset, index, packet.pid, packet.continuityCounter)
            (adaptation, payload, start, discontinuity) = (
                packet.hasAdaptationField, packet.hasPayload, packet.payloadUnitStart, packet.discontinuity
            )
        }

        var description: String { "#\(index)@\(offset) pid \(pid) cc \(counter)" }
    }

    struct Recorder: TransportStreamPacketSink {
        var seen: [Seen] = []
        mutating func take(_ packet: UnsafeRawBufferPointer, offset: Int, index: Int) {
            if let header = TransportStreamPacket(header: packet) {
                seen.append(Seen(offset: offset, index: index, header))
            }
        }
    }

    static let poster = ID3Tag(
        majorVersion: 4,
        frames: [
            TransportStreamTimestamp.makeFrame(pts90k: 123_456),
            .attachedPicture(AttachedPicture(mimeType: "image/png", data: [UInt8](repeating: 0x5A, count: 3000))),
        ])

    /// PAT, PMT, two timed-ID3 PES packets, then audio-like packets on 0x101 (with a gap).
    static let stream: [UInt8] = {
        var cc: UInt8 = 3
        let first = TransportStream.timedID3Packets(
            tag: poster.serialized(), pts90k: 90_000, pid: 0x102, continuityCounter: &cc)
        let second = TransportStream.timedID3Packets(
            tag: ID3Tag(frames: [.text(id: "TIT2", value: "second")]).serialized(), pts90k: 180_000, pid: 0x102,
            continuityCounter: &cc)
        var audioCC: UInt8 = 0
        var audio: [UInt8] = []
        for index in 0..<40 {
            let packet = TransportStream.packetize(
                pes: [UInt8](repeating: UInt8(index), count: 184), pid: 0x101, continuityCounter: &audioCC)
            if index != 17 { audio += packet }  // packet 17 lost: a continuity gap
        }
        return buildTransportStream(
            id3Packets: first + Array(audio[0..<(20 * 188)]) + second + Array(audio[(20 * 188)...]))
    }()

    /// Damage that makes the walkers lose and find sync in every way they can.
    static let damaged: [(String, [UInt8])] = {
        let ts = stream
        var flipped = ts
        for index in stride(from: 5 * 188, to: ts.count, by: 7 * 188 + 13) { flipped[index] = 0x46 }
        var lonelyLast = ts.prefix(ts.count - 188) + [UInt8](repeating: 0x11, count: 50)
        lonelyLast += [0x47] + [UInt8](repeating: 0x00, count: 187)  // a lone sync byte in the last packet
        var overlong = ts
        overlong[4 * 188 + 3] |= 0x20
        overlong[4 * 188 + 4] = 200  // an adaptation field longer than the packet
        return [
            ("intact", ts),
            ("junk between packets", Array(ts[0..<(3 * 188)]) + [0x47, 1, 2, 0x47, 9] + Array(ts[(3 * 188)...])),
            ("sync bytes flipped", flipped),
            ("lone sync in the last packet", Array(lonelyLast)),
            ("trailing partial packet", ts + [0x47, 0x40, 0x00]),
            ("adaptation field too long", overlong),
            ("no sync at all", [UInt8](repeating: 0x47, count: 1) + [UInt8](repeating: 0x20, count: 3000)),
            ("shorter than a packet", Array(ts.prefix(150))),
        ]
    }()

    static let pieceSizes = [1, 7, 187, 188, 189, 376, 377, 1000, 65_536]

    static func pulled(_ bytes: [UInt8]) -> [Seen] {
        var seen: [Seen] = []
        TransportStream.forEachPacket(in: ByteCursor(InMemoryBytes(bytes), windowSize: 1024)) { offset, index, packet in
            seen.append(Seen(offset: offset, index: index, packet))
        }
        return seen
    }

    static func pieces(of bytes: [UInt8], size: Int, _ body: (UnsafeRawBufferPointer) -> Void) {
        bytes.withUnsafeBytes { all in
            var start = 0
            while start < all.count {
                let end = min(all.count, start + size)
                body(UnsafeRawBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
    }

    @Test("the packets found are those of the pull walk, wherever the pieces are cut", arguments: pieceSizes)
    func walkerMatchesThePullWalk(size: Int) {
        for (name, bytes) in Self.damaged {
            var walker = TransportStreamPacketWalker(count: bytes.count)
            var recorder = Recorder()
            Self.pieces(of: bytes, size: size) { walker.feed($0, into: &recorder) }
            #expect(recorder.seen == Self.pulled(bytes), "\(name), pieces of \(size)")
        }
    }

    @Test("continuity and tags are those of the whole bytes", arguments: pieceSizes)
    func scannerMatchesTheWholeBytes(size: Int) throws {
        for (name, bytes) in Self.damaged {
            let scanner = TransportStreamScanner(count: bytes.count)
            Self.pieces(of: bytes, size: size) { scanner.feed($0) }
            #expect(scanner.consumed == bytes.count)
            let (continuity, tags) = scanner.finish()
            #expect(continuity == TransportStream.continuity(in: bytes), "\(name), pieces of \(size)")
            #expect(tags == EmbeddedID3.tags(in: bytes, container: .mpegTS), "\(name), pieces of \(size)")
        }
        // The intact stream: what a checker reports from it.
        let scanner = TransportStreamScanner(count: Self.stream.count)
        Self.pieces(of: Self.stream, size: size) { scanner.feed($0) }
        let (continuity, tags) = scanner.finish()
        #expect(continuity.errorCount == 1)
        #expect(continuity.errors.first?.pid == 0x101)
        #expect(tags.map(\.pts90k) == [90_000, 180_000])
        #expect(tags.first?.tag == Self.poster)
    }

    @Test("a tag over the limit is reported, as by the whole-bytes walk")
    func tagOverTheLimitIsReported() {
        let scanner = TransportStreamScanner(count: Self.stream.count, maximumTagBytes: 1000)
        Self.pieces(of: Self.stream, size: 4096) { scanner.feed($0) }
        let tags = scanner.finish().tags
        #expect(tags == EmbeddedID3.tags(in: Self.stream, container: .mpegTS, maximumTagBytes: 1000))
        #expect(tags.first?.error?.contains("over the limit of 1000 bytes") == true)
    }
}
