import HLSPlaylist

/// Where a partial segment sits in a live playlist: its parent's media sequence number and its
/// index among the parent's parts.
package struct PartPosition: Sendable, Hashable {
    package var sequence: Int
    package var index: Int

    package init(sequence: Int, index: Int) {
        self.sequence = sequence
        self.index = index
    }
}

extension MediaPlaylist {
    /// The media sequence number of the last segment listed, the segments a delta update
    /// skips counted (EXT-X-SKIP).
    var lastMediaSequence: Int { mediaSequence + (skippedSegments ?? 0) + segments.count - 1 }

    /// The partial segment the playlist lists last; nil without parts.
    var lastPart: PartPosition? {
        if !trailingParts.isEmpty {
            return PartPosition(sequence: lastMediaSequence + 1, index: trailingParts.count - 1)
        }
        if let last = segments.last, !last.parts.isEmpty {
            return PartPosition(sequence: lastMediaSequence, index: last.parts.count - 1)
        }
        return nil
    }

    /// The parts of the segment with media sequence number `sequence`, the trailing ones for
    /// the segment being written; nil when the playlist does not list it.
    func parts(ofSegment sequence: Int) -> [PartialSegment]? {
        let index = sequence - mediaSequence - (skippedSegments ?? 0)
        if index >= 0, index < segments.count { return segments[index].parts }
        if index == segments.count { return trailingParts }
        return nil
    }
}
