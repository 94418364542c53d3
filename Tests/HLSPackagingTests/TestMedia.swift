import Foundation
import MediaFormats
import MediaInspection
import HLSPackaging

/// Real media from the repository: the committed sample stream and the MediaInspection fixtures.
/// Paths are resolved from this file, through symlinks, so the tests run from any package root.
enum TestMedia {
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func bytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent(relativePath)))
    }

    static func fixture(_ name: String) throws -> [UInt8] {
        try bytes("Tests/MediaInspectionTests/Fixtures/\(name)")
    }

    /// The sample's audio-only variant without a poster. Samples/generate.sh embeds one with
    /// `hlscheck embed`; taking it out again gives the segments as the ffmpeg CLI wrote them.
    static func variantSegments() throws -> [[UInt8]] {
        var stripper = TransportStreamPosterWriter()
        return try (0..<3).map { try stripper.rewrite(bytes("Samples/compliant/audio/seg\($0).ts"), poster: nil) }
    }

    static func jpegPoster() throws -> Poster { try Poster(image: fixture("poster.jpg"), description: "poster") }
    static func pngPoster() throws -> Poster { try Poster(image: fixture("poster.png")) }

    /// Demuxes `bytes` with libavformat (SegmentInspector) from a temporary file named `name`.
    static func inspect(_ bytes: [UInt8], name: String, initSection: [UInt8]? = nil) async throws -> SegmentFacts {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("hlspackaging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        var initRequest: SegmentRequest.InitSection? = nil
        if let initSection {
            let initFile = directory.appendingPathComponent("init.mp4")
            try Data(initSection).write(to: initFile)
            initRequest = .init(uri: initFile.path)
        }
        return try await SegmentInspector(source: LocalSegmentSource())
            .inspect(SegmentRequest(uri: file.path, initSection: initRequest, wantsStreamInfo: true))
    }

    /// The pictures of every ID3 tag found the way players find them (EmbeddedID3).
    static func pictures(in bytes: [UInt8], container: ContainerKind) -> [AttachedPicture] {
        EmbeddedID3.tags(in: bytes, container: container).compactMap { $0.tag?.attachedPicture }
    }
}

/// Transport stream views used by the assertions.
enum TS {
    static func packets(_ bytes: [UInt8]) -> [TransportStreamPacket] {
        stride(from: 0, to: bytes.count, by: 188).compactMap {
            TransportStreamPacket(bytes[$0..<min($0 + 188, bytes.count)])
        }
    }

    static func rawPackets(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        stride(from: 0, to: bytes.count, by: 188).map { bytes[$0..<min($0 + 188, bytes.count)] }
    }

    /// The first complete section on `pid` (pointer_field 0 layouts, as muxers write them).
    static func firstSection(_ bytes: [UInt8], pid: UInt16) -> [UInt8]? {
        guard let packet = packets(bytes).first(where: { $0.pid == pid && $0.payloadUnitStart }),
            let pointer = packet.payload.first
        else { return nil }
        let section = packet.payload.dropFirst(1 + Int(pointer))
        guard section.count >= 3 else { return nil }
        let length = 3 + (Int(section[section.startIndex + 1] & 0x0F) << 8 | Int(section[section.startIndex + 2]))
        return Array(section.prefix(length))
    }

    static func pmtPID(_ bytes: [UInt8]) -> UInt16? {
        firstSection(bytes, pid: 0).flatMap { ProgramAssociationSection($0[...]) }?.programs.values.min()
    }

    static func pmt(_ bytes: [UInt8]) -> ProgramMapSection? {
        pmtPID(bytes).flatMap { firstSection(bytes, pid: $0) }.flatMap { ProgramMapSection($0[...]) }
    }

    static func firstPTS(_ bytes: [UInt8], pid: UInt16) -> Int64? {
        packets(bytes).first { $0.pid == pid && $0.payloadUnitStart }.flatMap { PESPacket($0.payload)?.pts90k }
    }

    /// Packets not on the given PIDs, byte for byte, in order.
    static func packets(_ bytes: [UInt8], excluding pids: Set<UInt16>) -> [ArraySlice<UInt8>] {
        zip(packets(bytes), rawPackets(bytes)).filter { !pids.contains($0.0.pid) }.map(\.1)
    }

    /// The segment with the continuity_counter nibble of `pid` cleared, to compare bytes
    /// apart from counters that legitimately continue across calls.
    static func maskingContinuity(_ bytes: [UInt8], pid: UInt16) -> [UInt8] {
        var copy = bytes
        for offset in stride(from: 0, to: copy.count, by: 188)
        where (UInt16(copy[offset + 1] & 0x1F) << 8 | UInt16(copy[offset + 2])) == pid {
            copy[offset + 3] &= 0xF0
        }
        return copy
    }
}
