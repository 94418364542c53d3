import HLSPlaylist

// bis-22 §6.2.4: the media playlists of one multivariant playlist describe the same
// presentation, so what they say about it as a whole (its type, its clock, its server
// control, its date ranges, its discontinuities) must agree.

/// Date ranges missing from a playable combination, or described differently in two playlists.
package struct DateRangesInconsistentRule: Rule {
    static let dated = "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n"
    static let ad = "#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"2026-01-01T00:00:06.000Z\",DURATION=6\n"

    static func files(video: String, audio: String) -> [String: String] {
        [
            "master.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio.m3u8\"\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aud\"\nvideo.m3u8\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS=\"mp4a.40.2\"\naudio-only.m3u8\n",
            "video.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n\(dated)\(video)#EXTINF:6,\ns0.ts\n#EXTINF:6,\ns1.ts\n#EXT-X-ENDLIST\n",
            "audio.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n\(dated)\(audio)#EXTINF:6,\ns0.ts\n#EXTINF:6,\ns1.ts\n#EXT-X-ENDLIST\n",
            "audio-only.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n\(dated)\(ad)#EXTINF:6,\ns0.ts\n#EXTINF:6,\ns1.ts\n#EXT-X-ENDLIST\n",
        ]
    }

    package static let description = RuleDescription(
        id: "date-ranges-inconsistent", name: "Date ranges differ between playable combinations",
        defaultSeverity: .error,
        summary:
            "An EXT-X-DATERANGE of the stream is in no playlist of some playable combination (a variant with one rendition of each of its groups) of a finished stream, or two playlists describe the range of one ID differently.",
        rationale:
            "bis-22 §6.2.4: date ranges (ad breaks, chapters, interstitials) must reach the player whatever it plays: each must appear in every playable combination, and be the same wherever it appears.",
        specItems: [
            .bis(
                "6.2.4", .must,
                "Date Ranges (EXT-X-DATERANGE) appear in at least one media playlist of every playable combination, identical wherever they appear."
            )
        ],
        triggering: [
            RuleExample("an ad break missing from the video variant and its audio", files: files(video: "", audio: ""))
                .expecting(line: 4, "variant video.m3u8 can play without EXT-X-DATERANGE ID=\"ad\""),
            RuleExample(
                "the same ID with another duration",
                files: files(
                    video: ad.replacing("DURATION=6", with: "DURATION=12"), audio: "")),
        ],
        nonTriggering: [
            RuleExample(
                "the range in the audio rendition, which every combination of the video variant plays",
                files: files(video: "", audio: ad))
        ])

    /// The date ranges of `media` by ID, each as its attributes (NAME=value as written).
    static func ranges(_ media: MediaPlaylist) -> [String: (line: Int, attributes: [String: String])] {
        var result: [String: (line: Int, attributes: [String: String])] = [:]
        for range in media.dateRanges {
            guard let id = range.id else { continue }
            var entry = result[id] ?? (range.line, [:])
            for attribute in range.attributes.attributes where entry.attributes[attribute.name] == nil {
                entry.attributes[attribute.name] = attribute.rawValue
            }
            result[id] = entry
        }
        return result
    }

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let multivariant = stream.multivariant else { return [] }
        let playlists = stream.siblingMediaPlaylists
        var byURI: [String: [String: (line: Int, attributes: [String: String])]] = [:]
        var findings: [Finding] = []
        // The first description of each ID, to compare the others with.
        var first: [String: (uri: String, attributes: [String: String])] = [:]
        // A live playlist read a moment later may already carry the tag that completes a range
        // (END-DATE, DURATION): there only the attributes both playlists have must agree.
        let ended = stream.isEnded
        for (uri, playlist, media) in playlists {
            let ranges = Self.ranges(media)
            byURI[uri] = ranges
            for (id, range) in ranges.sorted(by: { $0.value.line < $1.value.line }) {
                guard let earlier = first[id] else {
                    first[id] = (uri, range.attributes)
                    continue
                }
                let names =
                    ended
                    ? Set(range.attributes.keys).union(earlier.attributes.keys)
                    : Set(range.attributes.keys).intersection(earlier.attributes.keys)
                let differing = names.sorted().filter { range.attributes[$0] != earlier.attributes[$0] }
                if let name = differing.first {
                    findings.append(
                        Finding(
                            "EXT-X-DATERANGE ID=\"\(id)\" says \(name)=\(range.attributes[name] ?? "nothing") here but \(name)=\(earlier.attributes[name] ?? "nothing") in \(stream.shortName(ofPlaylist: earlier.uri)): a date range is the same in every playlist that carries it",
                            at: playlist.location(line: range.line)))
                }
            }
        }
        // Live playlists hold different windows: a range may have left one and not yet another.
        guard stream.isEnded, !first.isEmpty else { return findings }
        let all = Set(first.keys)
        for variant in multivariant.variants {
            let uri = stream.loaded.resolvedURI(of: variant)
            guard byURI[uri] != nil else { continue }
            // An ID is in every combination when the variant's own playlist has it, or every
            // member of one of its rendition groups does.
            var covered = Set(byURI[uri]?.keys ?? [:].keys)
            let groups: [(MediaType, String?)] = [
                (.audio, variant.audioGroup), (.video, variant.videoGroup), (.subtitles, variant.subtitlesGroup),
            ]
            for (type, group) in groups {
                guard let group else { continue }
                let members = multivariant.renditions(ofType: type, group: group)
                let sets = members.map { rendition in
                    stream.loaded.resolvedURI(of: rendition).flatMap { byURI[$0] }.map { Set($0.keys) } ?? []
                }
                if let common = sets.first.map({ sets.dropFirst().reduce($0) { $0.intersection($1) } }),
                    !members.isEmpty
                {
                    covered.formUnion(common)
                }
            }
            let missing = all.subtracting(covered).sorted()
            if let id = missing.first {
                findings.append(
                    Finding(
                        "variant \(variant.uri) can play without EXT-X-DATERANGE ID=\"\(id)\"\(missing.count > 1 ? " (and \(missing.count - 1) more date range\(missing.count > 2 ? "s" : ""))" : ""), which \(stream.shortName(ofPlaylist: first[id]?.uri ?? "")) carries: put every date range in the variant's playlist, or in every rendition of one of its groups",
                        at: stream.root.location(line: variant.line)))
            }
        }
        return findings
    }
}
