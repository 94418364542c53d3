import HLSPlaylist
import MediaInspection

/// A segment with more than one audio track.
package struct AudioStreamsMultipleRule: Rule {
    package static let description = RuleDescription(
        id: "audio-streams-multiple", name: "Several audio tracks in a segment", defaultSeverity: .error,
        scope: .variant, settings: .appleOnly,
        summary: "A media segment carries more than one audio track.",
        rationale:
            "A player plays one audio track of a segment; the others (a second language, a commentary) are never heard. Each belongs in its own rendition, declared with EXT-X-MEDIA.",
        specItems: [.apple("2.17", .must, "A media segment holds at most one audio stream.")],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measuredPlaylists.compactMap { measurement in
            guard
                let record = measurement.records.firstInspected(whereContent: { _, formats in
                    formats.count { $0.kind == .audio } > 1
                })
            else { return nil }
            let audio = record.trackFormats.filter { $0.kind == .audio }
            return Finding(
                "segment \(record.uri) carries \(audio.count) audio tracks (\(audio.map { $0.codecString ?? $0.codecName }.joined(separator: ", "))): keep one per segment and offer the others as EXT-X-MEDIA audio renditions",
                at: measurement.location(of: record))
        }
    }
}

/// Multichannel audio muxed with video.
package struct MultichannelAudioMuxedRule: Rule {
    package static let description = RuleDescription(
        id: "multichannel-audio-muxed", name: "Multichannel audio muxed with video", defaultSeverity: .error,
        scope: .variant, settings: .appleOnly,
        summary: "A segment carries video together with audio of more than two channels.",
        rationale:
            "Multichannel audio belongs in a separate audio rendition (EXT-X-MEDIA TYPE=AUDIO with CHANNELS), so that devices without a multichannel output choose stereo instead, and the video variants do not each carry the surround bytes.",
        specItems: [.apple("9.6", .must, "Multichannel audio is a separate audio stream.")],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measuredPlaylists.compactMap { measurement in
            guard measurement.containsVideo,
                let record = measurement.records.firstInspected(whereContent: { _, formats in
                    formats.contains { $0.kind == .video } && formats.contains(where: Self.isMultichannel)
                }),
                let audio = record.trackFormats.first(where: Self.isMultichannel)
            else { return nil }
            return Finding(
                "segment \(record.uri) carries \(audio.channels ?? 0)-channel \(audio.codecString ?? audio.codecName) audio with its video: put multichannel audio in a separate EXT-X-MEDIA audio rendition",
                at: measurement.location(of: record))
        }
    }

    static func isMultichannel(_ format: TrackFormat) -> Bool {
        format.kind == .audio && (format.channels ?? 0) > 2
    }
}

/// Audio without a stereo AAC choice.
package struct StereoAudioMissingRule: Rule {
    /// AAC-LC, HE-AAC v1 and HE-AAC v2 (ISO/IEC 14496-3 audio object types 2, 5 and 29).
    static let aac: Set<String> = ["mp4a.40.2", "mp4a.40.5", "mp4a.40.29"]

    static func isStereoAAC(_ format: TrackFormat) -> Bool {
        guard format.kind == .audio, let codec = format.codecString, aac.contains(codec) else { return false }
        // HE-AAC v2 codes one channel and its parametric stereo: the core says mono.
        return format.channels == 2 || codec == "mp4a.40.29"
    }

    package static let description = RuleDescription(
        id: "stereo-audio-missing", name: "No stereo AAC audio", defaultSeverity: .error, settings: .appleOnly,
        summary: "The stream has audio, but none of it is stereo AAC-LC, HE-AAC v1 or HE-AAC v2.",
        rationale:
            "Stereo AAC is the audio every Apple device decodes and every output plays; a stream whose audio is only multichannel, mono, or in another codec leaves some devices without the audio they need.",
        specItems: [.apple("2.3", .must, "Stereo AAC-LC, HE-AAC v1 or HE-AAC v2 audio is provided.")],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        let playlists = stream.measuredPlaylists
        // A playlist whose segments were not read may hold the stereo AAC.
        guard playlists.allSatisfy(\.hasInspectedSegments) else { return [] }
        var audio: [(PlaylistMeasurement, TrackFormat)] = []
        for measurement in playlists {
            let formats = measurement.records.distinctTrackFormats.joined().filter { $0.kind == .audio }
            if formats.contains(where: Self.isStereoAAC) { return [] }
            audio += formats.map { (measurement, $0) }
        }
        guard let (measurement, _) = audio.first,
            let record = measurement.firstTrack(where: { $0.kind == .audio })?.record
        else { return [] }
        let found = Set(
            audio.map { "\($0.1.channels.map { "\($0)-channel " } ?? "")\($0.1.codecString ?? $0.1.codecName)" }
        ).sorted()
        return [
            Finding(
                "the stream's audio is \(found.joined(separator: ", ")), with no stereo AAC: provide stereo AAC-LC or HE-AAC audio (e.g. ffmpeg -c:a aac -ac 2)",
                at: measurement.location(of: record))
        ]
    }
}

/// A channel layout or frame rate change without EXT-X-DISCONTINUITY.
package struct FormatChangeWithoutDiscontinuityRule: Rule {
    package static let description = RuleDescription(
        id: "format-change-without-discontinuity", name: "Format change without EXT-X-DISCONTINUITY",
        defaultSeverity: .error, scope: .variant, settings: .appleOnly,
        summary:
            "The audio channel layout or the video frame rate changes from one segment to the next without EXT-X-DISCONTINUITY before it.",
        rationale:
            "A player sets up its decoders and outputs for the format it is playing; a new channel layout or frame rate without EXT-X-DISCONTINUITY reaches them unannounced, and the audio drops out or the video stutters.",
        specItems: [
            .apple("2.11", .must, "A channel layout change comes with EXT-X-DISCONTINUITY."),
            .apple("8.14", .must, "A video frame rate change is marked with EXT-X-DISCONTINUITY."),
            .apple(
                "8.13", .must,
                "Breaks of encoding continuity, such as a new channel layout or frame rate, are marked with EXT-X-DISCONTINUITY."
            ),
        ],
        needsMedia: true)

    /// Segments shorter than this are not compared by frame rate: a few frames give no rate.
    static let shortestComparedSegment = 0.5

    static func layout(_ record: SegmentRecord) -> (channels: Int, mask: UInt64?)? {
        guard let audio = record.trackFormats.first(where: { $0.kind == .audio }), let channels = audio.channels else {
            return nil
        }
        return (channels, audio.channelMask)
    }

    func change(from previous: SegmentRecord, to next: SegmentRecord) -> String? {
        if let before = Self.layout(previous), let after = Self.layout(next),
            before.channels != after.channels || (before.mask != nil && after.mask != nil && before.mask != after.mask)
        {
            return "the audio changes from \(before.channels) to \(after.channels) channels"
                + (before.channels == after.channels ? " in another layout" : "")
        }
        if let before = previous.videoFrameRate, let after = next.videoFrameRate,
            (previous.measuredDuration ?? 0) >= Self.shortestComparedSegment,
            (next.measuredDuration ?? 0) >= Self.shortestComparedSegment,
            abs(before - after) > FrameRateMismatchRule.tolerance * max(before, after)
        {
            return
                "the video changes from \(FrameRateMissingRule.rate(before)) to \(FrameRateMissingRule.rate(after)) frames per second"
        }
        return nil
    }

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measuredPlaylists.compactMap { measurement in
            for (before, record) in joins(measurement.inspectedRecords) {
                guard let change = change(from: before, to: record) else { continue }
                return Finding(
                    "at segment \(record.uri) \(change) with no EXT-X-DISCONTINUITY before it: mark the change with EXT-X-DISCONTINUITY",
                    at: measurement.location(of: record))
            }
            return nil
        }
    }
}
