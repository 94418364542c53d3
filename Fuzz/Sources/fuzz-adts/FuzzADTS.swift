import FuzzSupport
@testable import HLSPackaging
@testable import MediaFormats

/// Packed audio (RFC 8216 §3.4): ADTS frame headers (ISO/IEC 13818-7 §6.2), the leading ID3
/// tag with its timestamp PRIV frame, and the packed-audio poster writer.
// Also exported under libFuzzer's own name, for builds that link libFuzzer's main (debug).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzADTS(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    // Walk the frames the way a demuxer does: header, then skip frameLength bytes.
    var offset = 0
    while offset < bytes.count, let header = ADTSHeader(bytes[offset...]) {
        expectInvariant(header.frameLength >= header.headerLength, "frame of \(header.frameLength) bytes")
        offset += header.frameLength
    }
    _ = EmbeddedID3.sniffContainer(bytes[...])
    _ = EmbeddedID3.tags(in: bytes, container: .unknown)
    let poster = fuzzPoster()
    _ = try? PackedAudioPosterWriter.rewrite(bytes, poster: poster, timestampIfMissing: 900_000)
    _ = try? PackedAudioPosterWriter.rewrite(bytes, poster: nil, timestampIfMissing: nil)
    return 0
}

@main
enum ADTSFuzzer {
    static func main() {
        runFuzzer { data, size in fuzzADTS(data, size) }
    }
}

/// The poster the writers embed while fuzzing (`fuzzPosterImage`, a minimal JPEG).
private func fuzzPoster() -> Poster? {
    try? Poster(image: fuzzPosterImage, description: "fuzz")
}
