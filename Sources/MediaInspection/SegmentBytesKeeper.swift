internal import MediaFormats
import Synchronization

/// Segments an inspection read whole, kept for the one reader that needs them next:
/// `hlscheck embed` rewrites the audio segments its analysis has just measured, and takes their
/// bytes from here instead of opening and reading every file a second time. What the rewrite
/// gets is then the very bytes that were measured.
///
/// Bounded: only segments without video (embed rewrites audio-only variants and audio
/// renditions), each no larger than `maximumSegmentBytes`, and together at most `byteBudget`
/// bytes; a segment beyond that is not kept, and its reader reads the file again.
package final class SegmentBytesKeeper: Sendable {
    /// A segment as a request names it: its resolved URI and byte range.
    package struct Key: Hashable, Sendable {
        package var uri: String
        package var range: SegmentByteRange?

        package init(uri: String, range: SegmentByteRange?) {
            self.uri = uri
            self.range = range
        }
    }

    /// The largest segment read whole and kept: the scanners' window, which would hold a segment
    /// this small whole anyway (ByteCursor), so reading it whole costs no more memory.
    package static let defaultMaximumSegmentBytes = ByteCursor.defaultWindowSize

    package let maximumSegmentBytes: Int
    package let byteBudget: Int
    private let kept = Mutex<(segments: [Key: [UInt8]], bytes: Int)>(([:], 0))

    package init(byteBudget: Int, maximumSegmentBytes: Int = SegmentBytesKeeper.defaultMaximumSegmentBytes) {
        self.byteBudget = byteBudget
        self.maximumSegmentBytes = maximumSegmentBytes
    }

    /// Keeps `bytes`, the whole segment `request` names, when its facts show no video and the
    /// budget has room.
    func offer(_ bytes: [UInt8], of request: SegmentRequest, facts: SegmentFacts) {
        guard request.decryption == nil, !facts.tracks.contains(where: { $0.kind == .video }) else { return }
        let key = Key(uri: request.uri, range: request.range)
        kept.withLock { kept in
            guard kept.segments[key] == nil, kept.bytes + bytes.count <= byteBudget else { return }
            kept.segments[key] = bytes
            kept.bytes += bytes.count
        }
    }

    /// The kept bytes of the segment at `uri` (`range` in it), handed over once: nil when they
    /// were not kept, or were taken already.
    package func take(_ uri: String, range: SegmentByteRange?) -> [UInt8]? {
        kept.withLock { kept in
            guard let bytes = kept.segments.removeValue(forKey: Key(uri: uri, range: range)) else { return nil }
            kept.bytes -= bytes.count
            return bytes
        }
    }

    /// Lets go of everything still kept.
    package func removeAll() {
        kept.withLock { $0 = ([:], 0) }
    }

    /// How many bytes are kept now.
    package var keptBytes: Int { kept.withLock { $0.bytes } }
}
