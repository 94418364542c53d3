import FuzzSupport
@testable import HLSPackaging
@testable import MediaFormats

/// ISO BMFF boxes (ISO/IEC 14496-12 §4.2) and emsg (ISO/IEC 23009-1 §5.10.3.3), through the
/// fMP4 poster writer, which walks moof/traf/trun to place its emsg box. The first two bytes
/// split the input into an init section and a fragment.
// Also exported under libFuzzer's own name, for builds that link libFuzzer's main (debug).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzISOBox(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    if let message = EventMessageBox(payload: bytes[...]) {
        _ = message.presentationTime90k
        let written = message.serialized()
        expectInvariant(EventMessageBox(payload: written.dropFirst(8)) != nil, "an emsg we wrote does not read back")
    }
    _ = EmbeddedID3.tags(in: bytes, container: .fragmentedMP4)
    let poster = fuzzPoster()
    _ = try? FragmentedMP4PosterWriter.rewrite(bytes, initSection: nil, poster: poster)
    if bytes.count >= 2 {
        let split = min(bytes.count, 2 + (Int(bytes[0]) << 8 | Int(bytes[1])))
        let initSection = Array(bytes[2..<split]), fragment = Array(bytes[split...])
        if let rewritten = try? FragmentedMP4PosterWriter.rewrite(fragment, initSection: initSection, poster: poster) {
            _ = try? FragmentedMP4PosterWriter.rewrite(rewritten, initSection: initSection, poster: nil)
        }
    }
    return 0
}

@main
enum ISOBoxFuzzer {
    static func main() {
        runFuzzer { data, size in fuzzISOBox(data, size) }
    }
}

/// The poster the writers embed while fuzzing (`fuzzPosterImage`, a minimal JPEG).
private func fuzzPoster() -> Poster? {
    try? Poster(image: fuzzPosterImage, description: "fuzz")
}
