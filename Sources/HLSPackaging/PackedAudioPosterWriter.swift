internal import MediaFormats

/// Embeds the poster into packed-audio segments (ADTS AAC, MP3, AC-3, E-AC-3; RFC 8216 §3.4).
///
/// Such a segment starts with an ID3v2 tag whose PRIV frame
/// `com.apple.streaming.transportStreamTimestamp` carries the 33-bit 90 kHz timestamp of the
/// first sample (RFC 8216 §3.4 MUST; Apple "Timed Metadata for HTTP Live Streaming"). The poster
/// goes into that leading tag, because libavformat and other readers look only there
/// (design.md §6). Other frames keep their bytes; the audio after the tag(s) is not touched. A
/// later tag that cannot be read is dropped; a damaged leading tag is refused (it holds the
/// timestamp, and where the audio starts cannot be told).
package enum PackedAudioPosterWriter {
    /// `segment` with the leading tag's APIC set to `poster` (nil removes it). When the segment
    /// has no timestamp PRIV, one is added with `timestampIfMissing` (90 kHz ticks, wrapped to
    /// 33 bits); without it such a segment is refused, since the output must be valid HLS.
    package static func rewrite(_ segment: [UInt8], poster: Poster?, timestampIfMissing: Int64?) throws(PackagingError)
        -> [UInt8]
    {
        try refuseOtherContainers(segment)

        // The tags at the very start, back to back (a timestamp tag and a picture tag, say).
        var tagRanges: [Range<Int>] = []
        var position = 0
        while segment.count - position >= 10, segment[position..<(position + 3)].elementsEqual([0x49, 0x44, 0x33]) {
            let header: ID3Tag.Header
            do {
                header = try ID3Tag.Header.parse(segment[position...])
            } catch {
                throw PackagingError(
                    .malformedID3, "the leading ID3 tag at byte \(position) cannot be read (\(error.description))")
            }
            guard header.tagByteCount <= segment.count - position else {
                throw PackagingError(
                    .malformedID3,
                    "the leading ID3 tag at byte \(position) declares \(header.tagByteCount) bytes but only \(segment.count - position) remain: the segment is truncated"
                )
            }
            tagRanges.append(position..<(position + header.tagByteCount))
            position += header.tagByteCount
        }
        let audio = segment[position...]
        guard EmbeddedID3.sniffContainer(audio) == .packedAudio else {
            throw PackagingError(
                .wrongContainer,
                audio.isEmpty
                    ? "the segment holds ID3 tags but no audio frame: it is truncated or not packed audio"
                    : "no ADTS, MP3, AC-3 or E-AC-3 frame follows the ID3 tag(s) at byte \(position): the segment is not packed audio (or is encrypted)"
            )
        }

        let tags = tagRanges.map { try? ID3Tag.parse(segment[$0]).tag }
        let hasTimestamp = tags.contains { $0?.transportStreamTimestamp != nil }
        var prepended: [ID3Frame] = []
        if !hasTimestamp {
            guard let timestampIfMissing else {
                throw PackagingError(
                    .missingTimestamp,
                    "the segment has no ID3 PRIV \(TransportStreamTimestamp.owner) timestamp, which RFC 8216 §3.4 requires of packed audio; pass the 90 kHz timestamp of its first sample (e.g. from the previous segments' durations)"
                )
            }
            prepended = [TransportStreamTimestamp.makeFrame(pts90k: timestampIfMissing)]
        }

        var out = ByteWriter(capacity: segment.count + (poster?.data.count ?? 0) + 128)
        if tagRanges.isEmpty {
            out.writeBytes(try ID3TagEditor.serializedTag(prepended + (poster.map { [$0.frame] } ?? [])))
        }
        for (index, range) in tagRanges.enumerated() {
            let edit: ID3TagEditor.Edit
            if index == 0 {
                edit = .init(picture: poster?.frame, appendPictureIfAbsent: true, prependedFrames: prepended)
            } else if let tag = tags[index], ID3TagEditor.containsPicture(tag) {
                edit = .init(picture: nil, appendPictureIfAbsent: false)  // the poster lives in the first tag
            } else if tags[index] == nil {
                // A damaged tag (its size is known, its frames unreadable): dropped, not kept beside the poster.
                continue
            } else {
                out.writeBytes(segment[range])
                continue
            }
            if let edited = try ID3TagEditor.apply(edit, to: segment[range]) { out.writeBytes(edited) }
        }
        out.writeBytes(audio)
        return out.bytes
    }

    private static func refuseOtherContainers(_ segment: [UInt8]) throws(PackagingError) {
        switch EmbeddedID3.sniffContainer(segment[...]) {
        case .mpegTS:
            throw PackagingError(
                .wrongContainer, "the segment is MPEG-TS, not packed audio; use the transport stream writer")
        case .fragmentedMP4:
            throw PackagingError(.wrongContainer, "the segment is fMP4/CMAF, not packed audio; use the fMP4 writer")
        case .unknown:
            throw PackagingError(
                .wrongContainer,
                segment.isEmpty
                    ? "the segment is empty"
                    : "the segment starts with neither an ID3 tag nor an ADTS, MP3, AC-3 or E-AC-3 frame: it is not packed audio, or it is encrypted"
            )
        case .packedAudio:
            return
        }
    }
}
