import HLSPlaylist

// MUSTs of bis-22 that relate tags of the multivariant playlist to each other or to the media
// playlists it names: each tag is well formed on its own, the stream as a whole is not.

/// An EXT-X-SESSION-KEY that does not match the EXT-X-KEY tags with its URI.
package struct SessionKeyMismatchRule: Rule {
    static func stream(session: String, key: String) -> [String: String] {
        [
            "master.m3u8": "#EXTM3U\n#EXT-X-VERSION:5\n\(session)\n" + Examples.audioVariant(),
            "audio.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n\(key)\n#EXTINF:6,\nseg0.ts\n#EXT-X-ENDLIST\n",
        ]
    }

    package static let description = RuleDescription(
        id: "session-key-mismatch", name: "EXT-X-SESSION-KEY does not match EXT-X-KEY", defaultSeverity: .error,
        summary:
            "An EXT-X-KEY of a media playlist has the URI of an EXT-X-SESSION-KEY but another METHOD, KEYFORMAT or KEYFORMATVERSIONS.",
        rationale:
            "bis-22 §4.4.6.5: EXT-X-SESSION-KEY lets a player fetch keys before it reads a media playlist; a session key whose method or format differs from the key it announces makes the player prepare the wrong decryption.",
        specItems: [
            .bis(
                "4.4.6.5", rfc: "4.3.4.5", .must,
                "EXT-X-SESSION-KEY's METHOD, KEYFORMAT and KEYFORMATVERSIONS match every EXT-X-KEY with the same URI.")
        ],
        triggering: [
            RuleExample(
                "a SAMPLE-AES session key for an AES-128 key",
                files: stream(
                    session: "#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI=\"https://keys.example/k1\"",
                    key: "#EXT-X-KEY:METHOD=AES-128,URI=\"https://keys.example/k1\"")
            ).expecting(line: 5, "has the URI of the EXT-X-SESSION-KEY on line 3")
        ],
        nonTriggering: [
            RuleExample(
                "the same method and the default key format",
                files: stream(
                    session: "#EXT-X-SESSION-KEY:METHOD=AES-128,URI=\"https://keys.example/k1\",KEYFORMAT=\"identity\"",
                    key: "#EXT-X-KEY:METHOD=AES-128,URI=\"https://keys.example/k1\""))
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let multivariant = stream.multivariant, !multivariant.sessionKeys.isEmpty else { return [] }
        struct Identity: Equatable { var method: String, format: String, versions: String }
        func identity(_ key: EncryptionKey) -> Identity {
            Identity(method: key.method, format: key.keyFormat ?? "identity", versions: key.keyFormatVersions ?? "1")
        }
        var sessions: [String: (key: EncryptionKey, identities: [Identity])] = [:]
        for key in multivariant.sessionKeys {
            guard let uri = key.uri else { continue }
            sessions[stream.loaded.resolve(uri), default: (key, [])].identities.append(identity(key))
        }
        var findings: [Finding] = []
        for (uri, playlist, media) in stream.mediaPlaylists {
            var seenLines: Set<Int> = []
            for segment in media.segments {
                guard let key = segment.key, seenLines.insert(key.line).inserted, let keyURI = key.uri,
                    let session = sessions[URIResolver.resolve(keyURI, against: uri)],
                    !session.identities.contains(identity(key))
                else { continue }
                let own = identity(key), announced = identity(session.key)
                findings.append(
                    Finding(
                        "EXT-X-KEY METHOD=\(own.method),KEYFORMAT=\"\(own.format)\",KEYFORMATVERSIONS=\"\(own.versions)\" has the URI of the EXT-X-SESSION-KEY on line \(session.key.line) of the multivariant playlist, which says METHOD=\(announced.method),KEYFORMAT=\"\(announced.format)\",KEYFORMATVERSIONS=\"\(announced.versions)\": make the session key say what the key is",
                        at: playlist.location(line: key.line)))
            }
        }
        return findings
    }
}
