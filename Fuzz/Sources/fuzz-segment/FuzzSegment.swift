import Dispatch
import FuzzSupport
@testable import MediaInspection
import Synchronization

/// A URI the fuzz input does not hold (the inspector reports it as unreadable).
struct SegmentNotHeld: Error {}

/// Segments held in memory, for the inspector.
struct MemorySegments: SegmentByteSource {
    let files: [String: [UInt8]]

    func read(_ uri: String, range: SegmentByteRange?) async throws -> [UInt8] {
        guard let bytes = files[uri] else { throw SegmentNotHeld() }
        return bytes
    }
}

/// The inspector's answer, handed from the inspecting task to the fuzzer's thread.
final class Outcome: Sendable {
    let facts = Mutex<SegmentFacts?>(nil)
    let done = DispatchSemaphore(value: 0)
}

/// What the segment's URI says it is; the inspector sniffs as well.
let extensions = ["ts", "aac", "mp3", "ac3", "ec3", "m4s", "mp4", "bin"]

/// Whole segments through SegmentInspector: libavformat demuxing from memory plus our own ID3,
/// TS and ADTS readers. The first byte picks the extension and whether stream info is probed;
/// for `.m4s`, the next two bytes say how many bytes form the init section.
// Also exported under libFuzzer's own name, for builds that link libFuzzer's main (debug).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSegment(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    guard let selector = bytes.first else { return 0 }
    let ext = extensions[Int(selector & 0x07)]
    let wantsStreamInfo = selector & 0x08 != 0
    var files: [String: [UInt8]] = [:]
    let request: SegmentRequest
    if ext == "m4s", bytes.count >= 3 {
        let split = min(bytes.count, 3 + (Int(bytes[1]) << 8 | Int(bytes[2])))
        files["init.mp4"] = Array(bytes[3..<split])
        files["seg.m4s"] = Array(bytes[split...])
        request = SegmentRequest(uri: "seg.m4s", initSection: .init(uri: "init.mp4"), wantsStreamInfo: wantsStreamInfo)
    } else {
        files["seg.\(ext)"] = Array(bytes.dropFirst())
        request = SegmentRequest(uri: "seg.\(ext)", wantsStreamInfo: wantsStreamInfo)
    }
    let inspector = SegmentInspector(source: MemorySegments(files: files))
    let outcome = Outcome()
    Task {
        let facts = try? await inspector.inspect(request)
        outcome.facts.withLock { $0 = facts }
        outcome.done.signal()
    }
    outcome.done.wait()
    let facts = outcome.facts.withLock { $0 }
    expectInvariant(facts != nil, "inspecting bytes held in memory threw")
    if let facts {
        expectInvariant(facts.byteCount == files[request.uri]?.count, "byteCount \(facts.byteCount)")
        for tag in facts.id3 {
            expectInvariant(tag.offset >= 0 && tag.offset <= facts.byteCount, "ID3 tag at \(tag.offset)")
        }
    }
    return 0
}

@main
enum SegmentFuzzer {
    static func main() {
        runFuzzer { data, size in fuzzSegment(data, size) }
    }
}
