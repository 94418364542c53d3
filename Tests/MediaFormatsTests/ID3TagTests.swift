import Testing
@testable import MediaFormats

/// A small JPEG-looking payload that contains 0xFF 0xE0 / 0xFF 0x00 pairs, so unsynchronisation matters.
let posterBytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0xFF, 0x00, 0xFF, 0xFF, 0xD9]

func sampleTag(majorVersion: UInt8) -> ID3Tag {
    ID3Tag(
        majorVersion: majorVersion,
        frames: [
            TransportStreamTimestamp.makeFrame(pts90k: 8_589_934_000),
            .attachedPicture(
                AttachedPicture(mimeType: "image/jpeg", pictureType: 3, description: "Affiche – été", data: posterBytes)
            ),
            .text(id: "TIT2", value: "Émission 7"),
            .userText(description: "com.example.id", value: "42"),
            .text(id: "TPE1", value: "日本語"),
            .unknown(id: "XYZ1", flags: 0, body: [1, 2, 3, 0, 0xFF]),
        ])
}

/// Builds ID3 bytes by hand: header with `flags`, then `body` (already unsynchronised if needed).
func handBuiltTag(major: UInt8, flags: UInt8, body: [UInt8], footer: Bool = false) -> [UInt8] {
    var writer = ByteWriter()
    writer.writeBytes(Array("ID3".utf8) + [major, 0, flags])
    writer.writeSynchsafeUInt28(UInt32(body.count))
    writer.writeBytes(body)
    if footer {
        writer.writeBytes(Array("3DI".utf8) + [major, 0, flags])
        writer.writeSynchsafeUInt28(UInt32(body.count))
    }
    return writer.bytes
}

func frameBytes(id: String, size: Int, synchsafe: Bool, flags: UInt16 = 0, body: [UInt8]) -> [UInt8] {
    var writer = ByteWriter()
    writer.writeBytes(Array(id.utf8))
    if synchsafe { writer.writeSynchsafeUInt28(UInt32(size)) } else { writer.writeUInt32(UInt32(size)) }
    writer.writeUInt16(flags)
    writer.writeBytes(body)
    return writer.bytes
}

@Suite("ID3v2 tags")
struct ID3TagTests {
    @Test("tag → bytes → tag → bytes is lossless", arguments: [UInt8(3), 4])
    func roundTrips(version: UInt8) throws {
        let tag = sampleTag(majorVersion: version)
        let bytes = tag.serialized()
        #expect(Array(bytes.prefix(4)) == [0x49, 0x44, 0x33, version])
        let (parsed, count) = try ID3Tag.parse(bytes[...])
        #expect(count == bytes.count)
        #expect(parsed == tag)
        #expect(parsed.serialized() == bytes)
        #expect(parsed.transportStreamTimestamp?.pts90k == 8_589_934_000)
        #expect(parsed.attachedPicture?.data == posterBytes)
    }

    /// The facts of a frame give its size in a tag (what a poster costs a segment) without
    /// writing the tag: it must be the size the writer gives it, a picture's included.
    @Test("a frame's size is the one it takes in a written tag")
    func frameSizeIsTheWrittenOne() {
        for frame in sampleTag(majorVersion: 4).frames {
            #expect(
                frame.serializedByteCount == ID3Tag(majorVersion: 4, frames: [frame]).serialized().count - 10,
                "\(frame.id)")
        }
        let picture = ID3Frame.attachedPicture(
            AttachedPicture(mimeType: "image/png", description: "", data: [UInt8](repeating: 7, count: 5000)))
        // Header, text encoding, "image/png" and NUL, picture type, empty description and NUL, data.
        #expect(picture.serializedByteCount == 10 + 1 + 10 + 1 + 1 + 5000)
    }

    @Test("writes UTF-8 in v2.4, ISO-8859-1 or UTF-16 in v2.3")
    func chosenTextEncodings() throws {
        let v4 = ID3Tag(majorVersion: 4, frames: [.text(id: "TIT2", value: "été")]).serialized()
        #expect(v4[20] == 3)
        let v3latin = ID3Tag(majorVersion: 3, frames: [.text(id: "TIT2", value: "été")]).serialized()
        #expect(v3latin[20] == 0)
        #expect(Array(v3latin[21...]) == [0xE9, 0x74, 0xE9])
        let v3wide = ID3Tag(majorVersion: 3, frames: [.text(id: "TIT2", value: "日")]).serialized()
        #expect(v3wide[20] == 1)
        #expect(Array(v3wide[21...]) == [0xFE, 0xFF, 0x65, 0xE5])
    }

    @Test("v2.4 with extended header, per-frame unsynchronisation, data length indicator and footer")
    func handBuiltV24() throws {
        let privBody: [UInt8] =
            Array("com.apple.streaming.transportStreamTimestamp".utf8) + [0] + [0, 0, 0, 1, 0xFF, 0xE0, 0, 0]
        let unsynced = ID3Tag.applyingUnsynchronisation(privBody)
        #expect(unsynced.count == privBody.count + 1)
        // DLI (synchsafe 4 bytes) precedes the data; flags: unsynchronisation 0x02 + DLI 0x01.
        var dli = ByteWriter(); dli.writeSynchsafeUInt28(UInt32(privBody.count))
        let priv = frameBytes(
            id: "PRIV", size: 4 + unsynced.count, synchsafe: true, flags: 0x0003, body: dli.bytes + unsynced)
        let title = frameBytes(id: "TIT2", size: 6, synchsafe: true, body: [3] + Array("Hello".utf8))
        let extendedHeader: [UInt8] = [0, 0, 0, 6, 1, 0]  // synchsafe size 6, one flag byte, no flags
        let padding = [UInt8](repeating: 0, count: 7)
        let bytes = handBuiltTag(
            major: 4, flags: 0x40 | 0x10, body: extendedHeader + priv + title + padding, footer: true)
        let trailing: [UInt8] = [0xFF, 0xF1]  // the audio that follows must not be counted
        let (tag, count) = try ID3Tag.parse((bytes + trailing)[...])
        #expect(count == bytes.count)
        #expect(tag.majorVersion == 4)
        #expect(tag.frames.count == 2)
        #expect(tag.transportStreamTimestamp?.pts90k == Int64(0x1_FFE0_0000 & 0x1_FFFF_FFFF))
        #expect(tag.frames.last == .text(id: "TIT2", value: "Hello"))
    }

    @Test("v2.4 tag-level unsynchronisation flag applies to every frame")
    func v24TagLevelUnsynchronisation() throws {
        let apic: [UInt8] = [3] + Array("image/jpeg".utf8) + [0, 3, 0] + posterBytes
        let unsynced = ID3Tag.applyingUnsynchronisation(apic)
        let frame = frameBytes(id: "APIC", size: unsynced.count, synchsafe: true, flags: 0x0002, body: unsynced)
        let (tag, _) = try ID3Tag.parse(handBuiltTag(major: 4, flags: 0x80, body: frame)[...])
        #expect(
            tag.attachedPicture
                == AttachedPicture(mimeType: "image/jpeg", pictureType: 3, description: "", data: posterBytes))
    }

    @Test("v2.3 with tag-level unsynchronisation, extended header, plain sizes and UTF-16 LE text")
    func handBuiltV23() throws {
        let apic: [UInt8] = [0] + Array("image/png".utf8) + [0, 3] + Array("cover".utf8) + [0] + posterBytes
        let text: [UInt8] = [1, 0xFF, 0xFE, 0x48, 0, 0x69, 0]  // "Hi" UTF-16 LE with BOM
        let txxx: [UInt8] = [1, 0xFF, 0xFE, 0x6B, 0, 0, 0, 0xFF, 0xFE, 0x76, 0]  // "k" / "v"
        // A frame size of 0x80 (not synchsafe) proves v2.3 sizes are read as plain integers.
        let big = [UInt8](repeating: 0x41, count: 0x80)
        let frames =
            frameBytes(id: "APIC", size: apic.count, synchsafe: false, body: apic)
            + frameBytes(id: "TIT2", size: text.count, synchsafe: false, body: text)
            + frameBytes(id: "TXXX", size: txxx.count, synchsafe: false, body: txxx)
            + frameBytes(id: "COMM", size: big.count, synchsafe: false, flags: 0x0000, body: big)
        let extendedHeader: [UInt8] = [0, 0, 0, 6, 0, 0, 0, 0, 0, 0]
        let body = ID3Tag.applyingUnsynchronisation(extendedHeader + frames + [0, 0, 0, 0])
        let (tag, count) = try ID3Tag.parse(handBuiltTag(major: 3, flags: 0x80 | 0x40, body: body)[...])
        #expect(count == 10 + body.count)
        #expect(tag.majorVersion == 3)
        let expected: [ID3Frame] = [
            .attachedPicture(
                AttachedPicture(mimeType: "image/png", pictureType: 3, description: "cover", data: posterBytes)),
            .text(id: "TIT2", value: "Hi"),
            .userText(description: "k", value: "v"),
            .unknown(id: "COMM", flags: 0, body: big),
        ]
        #expect(tag.frames == expected)
    }

    @Test("v2.4 frames with plain 32-bit sizes (early iTunes) are still read")
    func toleratesNonSynchsafeFrameSizeInV24() throws {
        let body = [UInt8](repeating: 0x42, count: 0x80)
        let frame = frameBytes(id: "PRIV", size: 0x80 + 2, synchsafe: false, body: [0x61, 0] + body)
        let (tag, _) = try ID3Tag.parse(handBuiltTag(major: 4, flags: 0, body: frame)[...])
        #expect(tag.frames == [.privateData(owner: "a", data: body)])
    }

    @Test("ID3v2.2 and unknown versions are reported, with their size still readable")
    func rejectsUnsupportedVersions() throws {
        let bytes = handBuiltTag(major: 2, flags: 0, body: [0, 0, 0])
        #expect(throws: ID3Error.unsupportedVersion(2)) { try ID3Tag.parse(bytes[...]) }
        #expect(try ID3Tag.Header.parse(bytes[...]).tagByteCount == 13)
    }
}
