package import HLSPlaylist
package import StreamSources

/// A rendition of an EXT-X-MEDIA group, with its playlist when it has one and it could be read.
package struct RenditionAnalysis: Sendable, Hashable {
    /// The EXT-X-MEDIA tag.
    package var rendition: Rendition
    /// Resolved URI of the rendition's media playlist, nil when it has none (muxed into the variant).
    package var playlistURI: String?
    /// The rendition's media playlist, nil without a URI or when it could not be read.
    package var playlist: MediaPlaylist?
    /// What its segments hold; nil with `--playlist-only`, without a playlist, or when unreadable.
    package var measurement: PlaylistMeasurement?
    /// The spelling its playlist was read under, when `playlistURI` is another name of that file
    /// (`LoadedStream.canonicalURI(of:)`); nil when it is that spelling.
    package var canonicalPlaylistURI: String? = nil

    /// What names its playlist's file: one value for every spelling of it.
    package var playlistIdentity: String? { canonicalPlaylistURI ?? playlistURI }
}

/// One variant stream of the multivariant playlist — or the single media playlist that was given
/// as input — with everything the rules need to judge it.
package struct VariantAnalysis: Sendable, Hashable {
    /// The URI as written in the multivariant playlist (or as given on the command line).
    package var uri: String
    /// The URI resolved against its referrer; the key of `LoadedStream.mediaPlaylists`.
    package var playlistURI: String
    /// The EXT-X-STREAM-INF, nil when the input is a media playlist.
    package var stream: VariantStream?
    /// Where the variant is declared: its EXT-X-STREAM-INF line, or line 1 of a media playlist.
    package var location: SourceLocation
    /// The media playlist, nil when it could not be read.
    package var playlist: MediaPlaylist?
    /// The renditions of the variant's AUDIO group, in playlist order.
    package var audioRenditions: [RenditionAnalysis]
    /// The renditions of the variant's VIDEO group, in playlist order.
    package var videoRenditions: [RenditionAnalysis]
    /// What the variant's own segments hold; nil with `--playlist-only` or when unreadable.
    package var measurement: PlaylistMeasurement?
    /// The renditions of the variant's SUBTITLES group, in playlist order: a client plays one
    /// of them beside the video and audio, so its bytes count for BANDWIDTH too.
    package var subtitleRenditions: [RenditionAnalysis] = []
    /// The spelling its playlist was read under, when `playlistURI` is another name of that file.
    package var canonicalPlaylistURI: String? = nil

    /// What names its playlist's file: one value for every spelling of it.
    package var playlistIdentity: String { canonicalPlaylistURI ?? playlistURI }

    /// Where the EXT-X-STREAM-INF writes `attribute`: its line, at the attribute's column (0, the
    /// whole line, when it is absent or the input is a media playlist).
    package func location(ofAttribute attribute: String) -> SourceLocation {
        SourceLocation(uri: location.uri, line: location.line, column: stream?.attributes[attribute]?.column ?? 0)
    }

    /// Audio-only by declaration: CODECS lists only audio codecs. Without CODECS the
    /// declaration does not say: RESOLUTION or a VIDEO group makes it video, and neither leaves
    /// its kind unknown (`isKindUnknown`), not audio-only.
    package var isDeclaredAudioOnly: Bool {
        if let codecs = stream?.codecs, !codecs.isEmpty {
            let kinds = codecs.map(CodecKind.init(codec:))
            return kinds.contains(.audio) && !kinds.contains(.video)
        }
        return false
    }

    /// Whether neither the declaration (CODECS, RESOLUTION, a VIDEO group) nor inspected
    /// segments tell whether the variant carries video: with `--playlist-only`, a variant of
    /// BANDWIDTH alone may be audio-only or video.
    package var isKindUnknown: Bool {
        guard let stream, stream.codecs?.isEmpty ?? true, stream.resolution == nil, videoRenditions.isEmpty else {
            return false
        }
        return !(CollectionOfOne(measurement).compactMap { $0 } + allRenditions.lazy.compactMap(\.measurement))
            .contains(where: \.hasInspectedSegments)
    }

    /// Audio-only by content when the segments were inspected — audio and no video, in the
    /// variant and its renditions — else by declaration.
    package var isAudioOnly: Bool {
        var inspected = false, audio = false, video = false
        for measured in CollectionOfOne(measurement).compactMap({ $0 }) + allRenditions.lazy.compactMap(\.measurement) {
            inspected = inspected || measured.hasInspectedSegments
            audio = audio || measured.containsAudio
            video = video || measured.containsVideo
        }
        guard inspected else { return isDeclaredAudioOnly }
        return audio && !video
    }

    /// The audio renditions, then the video renditions, without copying either list (a hostile
    /// multivariant playlist can give thousands of variants one group of thousands of renditions).
    package var allRenditions: FlattenSequence<[[RenditionAnalysis]]> { [audioRenditions, videoRenditions].joined() }

    /// The declared BANDWIDTH in bit/s, nil when absent (or for a media playlist given alone).
    package var declaredBandwidth: Int? { stream?.bandwidth }
    /// The declared AVERAGE-BANDWIDTH in bit/s, nil when absent.
    package var declaredAverageBandwidth: Int? { stream?.averageBandwidth }

    /// Every playable combination of video and audio (RFC 8216 §4.3.4.2): the playlists a
    /// client downloads at once, each played with one of `subtitlePlaylists` when the variant
    /// has SUBTITLES (`largestSum` adds the one that weighs most). The subtitles are a choice of
    /// their own, not multiplied out here: a group of every language beside a group of every
    /// dubbed audio would make a product of combinations whose sums differ only by the
    /// subtitle rendition's share.
    ///
    /// The first playlist plays the video (and whatever is muxed with it): the variant's own, or a
    /// VIDEO rendition with a URI of its own, which a client loads *instead* (an alternate angle).
    /// Then one AUDIO rendition with a URI of its own, when the group has one; a rendition without
    /// URI, or whose URI is the first playlist, is muxed there and adds nothing — a playlist is
    /// never counted twice. CLOSED-CAPTIONS are carried in the video (docs/measurement.md).
    ///
    /// A variant whose own playlist *is* one of its AUDIO renditions (an audio-only variant over
    /// a group of languages, its URI the default's) has no media beside that group: choosing
    /// another rendition of the group plays that one instead, so each rendition is a
    /// combination of its own (RFC 8216 §4.3.4.1.1: each member of a group is an alternative
    /// rendition of the same content).
    package var playableCombinations: [[String]] {
        // Playlists are told apart by the file they name (`playlistIdentity`), not by spelling:
        // renditions naming a/index.m3u8?r=1 … ?r=N make one combination, not N, and the sets
        // keep the work linear in the renditions.
        let own = playlistIdentity
        if videoRenditions.isEmpty, audioRenditions.count > 1,
            audioRenditions.contains(where: { $0.playlistIdentity == own })
        {
            var seen: Set<String> = []
            return audioRenditions.compactMap { rendition in
                guard let uri = rendition.playlistURI, let identity = rendition.playlistIdentity,
                    seen.insert(identity).inserted
                else { return nil }
                return [uri]
            }
        }
        var mains: [(uri: String, identity: String)] = [(playlistURI, own)]
        var seenMains: Set<String> = [own]
        for rendition in videoRenditions {
            if let uri = rendition.playlistURI, let identity = rendition.playlistIdentity,
                seenMains.insert(identity).inserted
            {
                mains.append((uri, identity))
            }
        }
        var audio: [(uri: String, identity: String)?] = audioRenditions.isEmpty ? [nil] : []
        var seenAudio: Set<String?> = []
        for rendition in audioRenditions where seenAudio.insert(rendition.playlistIdentity).inserted {
            audio.append(rendition.playlistURI.map { ($0, rendition.playlistIdentity ?? $0) })
        }
        return mains.flatMap { main in
            var seen: Set<[String]> = []
            return audio.compactMap { other -> [String]? in
                guard let other, other.identity != main.identity else {
                    return seen.insert([main.identity]).inserted ? [main.uri] : nil
                }
                return seen.insert([main.identity, other.identity]).inserted ? [main.uri, other.uri] : nil
            }
        }
    }

    /// The playlists of the SUBTITLES renditions, each once, in playlist order: one of them
    /// joins each playable combination (bis-22 §4.4.6.2 counts every rendition a client plays).
    package var subtitlePlaylists: [String] {
        var seen: Set<String> = []
        return subtitleRenditions.compactMap { rendition in
            guard let uri = rendition.playlistURI, seen.insert(rendition.playlistIdentity ?? uri).inserted else {
                return nil
            }
            return uri
        }
    }

    /// Every playlist of every playable combination, subtitles included, each once.
    package var combinationPlaylists: [String] {
        var seen: Set<String> = []
        return (Array(playableCombinations.joined()) + subtitlePlaylists).filter { seen.insert($0).inserted }
    }

    /// The measurement of a playlist of this variant (its own or a rendition's).
    package func measurement(of uri: String) -> PlaylistMeasurement? {
        if uri == playlistURI { return measurement }
        return (allRenditions.first { $0.playlistURI == uri } ?? subtitleRenditions.first { $0.playlistURI == uri })?
            .measurement
    }

    /// The measured playlists of every combination, each once, in combination order.
    var combinationMeasurements: [PlaylistMeasurement] {
        combinationPlaylists.compactMap(measurement(of:))
    }

    /// The largest sum of `value` over the combinations whose playlists were all measured, with
    /// the combination that gives it; nil when the variant's own playlist was not measured.
    private func largestSum(_ value: (PlaylistMeasurement) -> Int?) -> (sum: Int, combination: [String])? {
        guard measurement.flatMap(value) != nil else { return nil }
        return largestSum(byPlaylist: { measurement(of: $0).flatMap(value) })
    }

    /// The largest sum of `value` (of a playlist URI) over the playable combinations whose
    /// playlists all have one, with the combination that gives it, subtitles included: the one
    /// definition the check and `hlscheck embed` (its new BANDWIDTH) share.
    ///
    /// Each combination takes the subtitle playlist of the largest value that is not already one
    /// of its playlists (a playlist is never counted twice); subtitle playlists without a value
    /// (not measured) are passed over — `isMeasurementComplete` is then false, so the sum is a
    /// lower bound no rule gives advice from. Linear in combinations plus subtitle renditions.
    package func largestSum(byPlaylist value: (String) -> Int?) -> (sum: Int, combination: [String])? {
        // The three largest are enough: a combination holds at most two playlists to skip.
        let subtitles = subtitlePlaylists.compactMap { uri in value(uri).map { (uri: uri, value: $0) } }
            .sorted { $0.value > $1.value }.prefix(3)
        var best: (sum: Int, combination: [String])?
        for combination in playableCombinations {
            let values = combination.map(value)
            guard values.allSatisfy({ $0 != nil }) else { continue }
            var sum = values.reduce(0) { $0 + ($1 ?? 0) }
            var played = combination
            if let subtitle = subtitles.first(where: { !combination.contains($0.uri) }) {
                sum += subtitle.value
                played.append(subtitle.uri)
            }
            if sum > (best?.sum ?? -1) { best = (sum, played) }
        }
        return best
    }

    /// The largest sum of peak bit rates over the playable combinations (docs/measurement.md).
    package var measuredPeakBitrate: Int? { largestSum(\.peakBitrate)?.sum }

    /// The combination that sets `measuredPeakBitrate`: playlist URIs, the main one first.
    package var peakCombination: [String]? { largestSum(\.peakBitrate)?.combination }

    /// The largest sum of average bit rates over the playable combinations.
    package var measuredAverageBitrate: Int? { largestSum(\.averageBitrate)?.sum }

    /// Whether every segment of every playlist of every combination was measured: without it,
    /// measured values are lower bounds and no rule computes advice from them.
    package var isMeasurementComplete: Bool {
        combinationPlaylists.allSatisfy { uri in
            measurement(of: uri).map { $0.measuredSegmentCount == $0.records.count } ?? false
        }
    }

    /// The largest poster, in image bytes, that every segment of the variant's own playlist can
    /// carry with its peak combination staying within `budget` — the one answer the check, the
    /// JSON report and `hlscheck embed` give (PosterBudget). Nil when nothing fits, or when some
    /// segment was not measured and inspected: no advice from partial data.
    package func largestPoster(
        within budget: Int, mimeType: String = PosterBudget.assumedMimeType, description: String = ""
    ) -> Int? {
        guard let own = measurement, own.isComplete, isMeasurementComplete,
            let peak = measuredPeakBitrate, let ownPeak = own.peakBitrate
        else { return nil }
        // What the rest of the peak combination (an audio rendition, say) takes of the budget.
        let others = peak - ownPeak
        return PosterBudget.largestPoster(
            within: budget - others, PosterBudget.segments(own), targetDuration: own.targetDuration,
            mimeType: mimeType, description: description)
    }

    /// RFC 6381 codec strings found in the segments of every playable combination.
    package var detectedCodecs: [String] {
        Array(Set(combinationMeasurements.flatMap(\.codecs))).sorted()
    }
}

/// The loaded stream seen as variants. Built once by the checker, read by every rule.
package struct StreamAnalysis: Sendable {
    /// The playlists as loaded.
    package var loaded: LoadedStream
    /// One per EXT-X-STREAM-INF, in playlist order; a single one for a media playlist given alone.
    package var variants: [VariantAnalysis]
    /// Measurements of every inspected media playlist, keyed by resolved URI.
    package var measurements: [String: PlaylistMeasurement]
    /// How the stream's resources travelled over HTTP; empty for a local stream (docs/remote.md).
    package var delivery = DeliveryLog()
    /// What reloading a live playlist showed (`--live-duration`); nil when not watched.
    package var live: LiveObservation?
    /// The JSON resources EXT-X-SESSION-DATA URIs name, as read; empty with `--playlist-only`.
    package var sessionData: [SessionDataResource] = []
    /// What the resources of each I-frame playlist hold, keyed by resolved URI; empty with
    /// `--playlist-only` (IFramePlaylistInspection).
    package var iFramePlaylists: [String: IFramePlaylistInspection] = [:]

    /// The root playlist.
    package var root: Playlist { loaded.root }

    /// Whether any variant carries video: the audio-only budget is about the fallback for video
    /// (docs/profiles.md, "audio-only budget without video").
    package var hasVideo: Bool { variants.contains { !$0.isAudioOnly } }
    /// The root as a multivariant playlist, nil when the input is a media playlist.
    package var multivariant: MultivariantPlaylist? { loaded.root.multivariant }

    /// Every playlist that was read, root first, then media playlists in URI order.
    package var playlists: [Playlist] {
        loaded.uniquePlaylists
    }

    /// The media playlists whose segments the checker measures: variants and their renditions.
    package static func playlistsToMeasure(_ loaded: LoadedStream) -> [String: MediaPlaylist] {
        let analysis = StreamAnalysis(loaded: loaded)
        var result: [String: MediaPlaylist] = [:]
        for variant in analysis.variants {
            if let playlist = variant.playlist { result[variant.playlistURI] = playlist }
            for rendition in [variant.allRenditions.map { $0 }, variant.subtitleRenditions].joined() {
                if let uri = rendition.playlistURI, let playlist = rendition.playlist { result[uri] = playlist }
            }
        }
        return result
    }

    /// Builds the variants of `loaded`, attaching `measurements` (keyed by resolved URI).
    package init(loaded: LoadedStream, measurements: [String: PlaylistMeasurement] = [:]) {
        self.loaded = loaded
        self.measurements = measurements
        let root = loaded.root
        guard let multivariant = root.multivariant else {
            variants = [
                VariantAnalysis(
                    uri: loaded.rootURI, playlistURI: loaded.rootURI, stream: nil,
                    location: root.location(line: 1), playlist: root.media,
                    audioRenditions: [], videoRenditions: [], measurement: measurements[loaded.rootURI])
            ]
            return
        }
        // Each group's list is built once and shared by its variants (arrays are copy-on-write):
        // linear in variants plus renditions, not their product.
        struct GroupKey: Hashable { var type: MediaType, group: String }
        var groups: [GroupKey: [RenditionAnalysis]] = [:]
        for rendition in multivariant.renditions {
            guard let type = rendition.type, let group = rendition.groupID else { continue }
            let uri = rendition.uri.map { URIResolver.resolve($0, against: loaded.rootURI) }
            groups[GroupKey(type: type, group: group), default: []].append(
                RenditionAnalysis(
                    rendition: rendition, playlistURI: uri,
                    playlist: uri.flatMap { loaded.mediaPlaylists[$0]?.media },
                    measurement: uri.flatMap { measurements[$0] },
                    canonicalPlaylistURI: uri.flatMap { loaded.aliases[$0] }))
        }
        func renditions(_ type: MediaType, _ group: String?) -> [RenditionAnalysis] {
            group.flatMap { groups[GroupKey(type: type, group: $0)] } ?? []
        }
        variants = multivariant.variants.map { variant in
            let resolved = URIResolver.resolve(variant.uri, against: loaded.rootURI)
            return VariantAnalysis(
                uri: variant.uri, playlistURI: resolved, stream: variant,
                location: root.location(line: variant.line),
                playlist: loaded.mediaPlaylists[resolved]?.media,
                audioRenditions: renditions(.audio, variant.audioGroup),
                videoRenditions: renditions(.video, variant.videoGroup),
                measurement: measurements[resolved],
                subtitleRenditions: renditions(.subtitles, variant.subtitlesGroup),
                canonicalPlaylistURI: loaded.aliases[resolved])
        }
    }
}
