import FuzzSupport
@testable import MediaFormats

/// ID3v2 tags (ID3v2.3/2.4 structure), alone and as packed-audio segments: the reader must
/// throw or return, never trap, and never claim more bytes than it was given.
// Also exported under libFuzzer's own name, for builds that link libFuzzer's main (debug).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzID3(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    if let header = try? ID3Tag.Header.parse(bytes[...]) {
        expectInvariant(header.bodySize >= 0, "negative body size \(header.bodySize)")
    }
    if let (tag, byteCount) = try? ID3Tag.parse(bytes) {
        expectInvariant(byteCount <= bytes.count, "tag of \(byteCount) bytes read from \(bytes.count)")
        _ = TransportStreamTimestamp(tag: tag)
        // What we read, we can write back, and read again.
        let written = tag.serialized()
        _ = try? ID3Tag.parse(written)
    }
    for found in EmbeddedID3.tags(in: bytes, container: .packedAudio) {
        expectInvariant(
            found.offset >= 0 && found.offset < max(bytes.count, 1), "tag offset \(found.offset) outside the input")
    }
    return 0
}

@main
enum ID3Fuzzer {
    static func main() {
        runFuzzer { data, size in fuzzID3(data, size) }
    }
}
