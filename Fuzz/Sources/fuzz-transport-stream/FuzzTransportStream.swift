import FuzzSupport
@testable import HLSPackaging
@testable import MediaFormats

/// MPEG-TS (ISO/IEC 13818-1): packet sync, PSI sections, PES packets and timed ID3 in TS, then
/// the TS poster writer, which must throw on what it cannot rewrite, never trap.
// Also exported under libFuzzer's own name, for builds that link libFuzzer's main (debug).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTransportStream(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    let offsets = TransportStream.packetOffsets(in: bytes[...])
    for offset in offsets {
        expectInvariant(
            offset >= 0 && offset + TransportStreamPacket.size <= bytes.count,
            "packet offset \(offset) outside the input")
        guard let packet = TransportStreamPacket(bytes[offset...]), packet.payloadUnitStart else { continue }
        _ = PESPacket(packet.payload)
        // A PSI section starts after its pointer_field (§2.4.4.1).
        if let pointer = packet.payload.first {
            let start = packet.payload.startIndex + 1 + Int(pointer)
            if start <= packet.payload.endIndex {
                let section = packet.payload[start...]
                _ = ProgramAssociationSection(section)
                if let pmt = ProgramMapSection(section) {
                    _ = pmt.streams.map(\.carriesTimedID3)
                    _ = ProgramMapSection(pmt.serialized()[...])
                }
            }
        }
    }
    _ = TransportStream.continuityErrors(in: bytes)
    _ = EmbeddedID3.tags(in: bytes, container: .mpegTS)
    var writer = TransportStreamPosterWriter()
    if let rewritten = try? writer.rewrite(bytes, poster: fuzzPoster()) {
        expectInvariant(
            rewritten.count % TransportStreamPacket.size == 0, "rewritten segment of \(rewritten.count) bytes")
        // The next segment of the same variant, and removing the poster again.
        _ = try? writer.rewrite(bytes, poster: fuzzPoster())
        var remover = TransportStreamPosterWriter()
        _ = try? remover.rewrite(rewritten, poster: nil)
    }
    return 0
}

@main
enum TransportStreamFuzzer {
    static func main() {
        runFuzzer { data, size in fuzzTransportStream(data, size) }
    }
}

/// The poster the writers embed while fuzzing (`fuzzPosterImage`, a minimal JPEG).
private func fuzzPoster() -> Poster? {
    try? Poster(image: fuzzPosterImage, description: "fuzz")
}
