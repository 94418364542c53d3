import HLSPlaylist

/// Encrypted segments whose content hlscheck cannot see: their bytes count, their content is
/// unchecked. One note per media playlist.
package struct SegmentEncryptedRule: Rule {
    package static let description = RuleDescription(
        id: "segment-encrypted", name: "Encrypted content not inspected", defaultSeverity: .note, scope: .variant,
        summary:
            "Encrypted segments could not be decrypted (no reachable AES-128 key, or SAMPLE-AES): their bytes count for bit rate, but codecs, poster and durations are not checked.",
        rationale:
            "RFC 8216 §4.3.2.4, §5.2: AES-128 segments decrypt with the key at the EXT-X-KEY URI; hlscheck decrypts them when it can read the key, as Apple's mediastreamvalidator does, and says so when it cannot.",
        needsMedia: true,
        triggering: [
            RuleExample(
                "AES-128 key file missing",
                files: [
                    "master.m3u8": "#EXTM3U\n" + Examples.audioVariant(),
                    "audio.m3u8":
                        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=AES-128,URI=\"missing.key\"\n#EXTINF:6.0,\nseg0.ts\n#EXT-X-ENDLIST\n",
                    "seg0.ts": String(repeating: "encrypted bytes.", count: 2),
                ]
            ).expecting(line: 5, "are encrypted and were not decrypted")
        ],
        nonTriggering: [
            RuleExample(
                "clear segment",
                files: [
                    "master.m3u8": "#EXTM3U\n" + Examples.audioVariant(),
                    "audio.m3u8":
                        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\nseg0.ts\n#EXT-X-ENDLIST\n",
                    "seg0.ts": "not a transport stream",
                ])
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measurements.values.sorted { $0.playlistURI < $1.playlistURI }.compactMap { measurement in
            var hidden = 0
            var first: SegmentRecord?
            for record in measurement.records where record.isMeasured && record.hiddenContentReason != nil {
                hidden += 1
                if first == nil { first = record }
            }
            guard let first, let reason = first.hiddenContentReason else { return nil }
            return Finding(
                "\(hidden) of \(measurement.records.count) segments of this playlist are encrypted and were not decrypted (\(reason)): their bytes count for bit rate; codecs, poster and durations are not checked",
                at: SourceLocation(uri: measurement.playlistURI, line: first.line))
        }
    }
}
