// Where hlscheck's verdict (`--profile rfc8216 --playlist-only`: an error or none) and a corpus
// label (`valid`: the source project's parser accepts the file; `INVALID`: its strict mode rejects
// it) part ways, and why. Read with CorpusAgreementTests, which fails when a disagreement is not
// listed here or an entry here no longer holds. The parser-level list, CorpusExceptions, covers
// `valid` files whose grammar breaks the spec; these are the ones only the checker's rules see.

enum CorpusAgreementExceptions {
    private static let targetDuration =
        "RFC 8216 §4.3.3.1: the EXTINF duration of each Media Segment, when rounded to the nearest integer, MUST be less than or equal to the target duration"
    private static let liveWindow =
        "bis-22 §6.2.2: the server MUST NOT remove a Media Segment from a live Playlist if that would leave it shorter than three target durations (EXT-X-MEDIA-SEQUENCE above 0: segments were removed)"
    private static let canSkipUntil =
        "rfc8216bis §4.4.3.8: CAN-SKIP-UNTIL MUST be at least six times the Target Duration"
    private static let steeringPathway =
        "bis-22 §4.4.6.6: the PATHWAY-ID of EXT-X-CONTENT-STEERING MUST match the PATHWAY-ID of at least one Variant Stream (no EXT-X-STREAM-INF here has one)"
    private static let closedCaptionsNone =
        "bis-22 §4.4.6.2: if CLOSED-CAPTIONS=NONE is present on one EXT-X-STREAM-INF tag, it MUST be present on all of them"
    private static let sameGroupMembers =
        "bis-22 §4.4.6.1.1: each Group of the same TYPE MUST have the same set of members, and corresponding members identical attributes but URI, CHANNELS, BIT-DEPTH, SAMPLE-RATE, STABLE-RENDITION-ID and INSTREAM-ID"
    private static let discontinuitySequence =
        "bis-22 §6.2.2: a Media Playlist with EXT-X-DISCONTINUITY from which segments are removed (EXT-X-MEDIA-SEQUENCE above 0) MUST contain EXT-X-DISCONTINUITY-SEQUENCE"
    private static let notIdentifiable =
        "bis-22 §4: each Playlist MUST be identifiable by the path of its URI (ending .m3u8 or .m3u) or by its HTTP Content-Type; a local file has no Content-Type"
    private static let supplementalBaseLayer =
        "bis-22 §4.4.6.2: each SUPPLEMENTAL-CODECS element MUST have its base layer codec in CODECS; Dolby Vision profile 5 (dvh1.05) has no backward-compatible base layer"
    private static let unknownNamesIgnored =
        "RFC 8216 §6.3.1: clients MUST ignore unrecognized tags and attribute/value pairs with an unrecognized AttributeName (the file is valid; the source project's strict mode is stricter than the spec)"

    /// `valid` files that break a MUST only a checker rule sees: the checker is right to report an error.
    static let validButBreaksSpec: [String: String] = [
        "globocom-m3u8/extracted/VOD_IMAGE_PLAYLIST.m3u8": targetDuration,
        "globocom-m3u8/extracted/VOD_IMAGE_PLAYLIST2.m3u8": targetDuration,
        "videojs-m3u8-parser/test/fixtures/integration/liveStart30sBefore.m3u8": targetDuration,
        "videojs-http-streaming/test/manifests/liveStart30sBefore.m3u8": targetDuration,
        "Eyevinn-hls-vodtolive/testvectors/hls17/1497000.m3u8": targetDuration,
        "Eyevinn-hls-vodtolive/testvectors/hls_cmaf_2/test-audio=256000.m3u8": targetDuration,
        "Eyevinn-hls-vodtolive/testvectors/hls_cmaf_2/test-video=2500000.m3u8": targetDuration,
        "Eyevinn-hls-vodtolive/testvectors/hls_cmaf_2/test-video=3500000.m3u8": targetDuration,
        "Eyevinn-hls-vodtolive/testvectors/hls_cmaf_interstitial_1/test-audio=256000.m3u8": targetDuration,
        "Eyevinn-hls-vodtolive/testvectors/hls_cmaf_interstitial_1/test-video=2500000.m3u8": targetDuration,
        "Eyevinn-hls-vodtolive/testvectors/hls_multiaudiotracks5/audio_stereo-en.m3u8": targetDuration,
        "Eyevinn-hls-vodtolive/testvectors/hls_ts_vas_demux_broken/audio.m3u8": targetDuration,
        "Eyevinn-hls-vodtolive/testvectors/hls_ts_vas_demux_broken/media7070700.m3u8": targetDuration,
        "Eyevinn-hls-vodtolive/testvectors/hls_ts_vas_demux_broken/subtitle.m3u8": targetDuration,
        "globocom-m3u8/extracted/LOW_LATENCY_DELTA_UPDATE_PLAYLIST.m3u8": canSkipUntil,
        "videojs-m3u8-parser/test/fixtures/integration/llhls.m3u8": canSkipUntil,
        "videojs-m3u8-parser/test/fixtures/integration/llhlsDelta.m3u8": canSkipUntil,
        "carlanton-m3u8-parser/src/test/resources/media/ll-hls-byteranges.m3u8": canSkipUntil,
        "carlanton-m3u8-parser/src/test/resources/media/ll-hls.m3u8": canSkipUntil,
        "Eyevinn-hls-m3u8/m3u8/sample-playlists/media-playlist-low-latency-initial-sequence-num-5.m3u8":
            "rfc8216bis §4.4.3.8: PART-HOLD-BACK is REQUIRED if the Playlist contains the EXT-X-PART-INF tag",
        "Eyevinn-hls-m3u8/m3u8/sample-playlists/media-playlist-trailing-scte35-daterange.m3u8":
            "rfc8216bis §4.4.5.1: if a Playlist contains an EXT-X-DATERANGE tag, it MUST also contain at least one EXT-X-PROGRAM-DATE-TIME tag",
        "Eyevinn-hls-m3u8/m3u8/sample-playlists/media-playlist-with-scte35-daterange.m3u8":
            "rfc8216bis §4.4.5.1: tags with the same ID MUST have the same value for any attribute that appears in both (START-DATE differs)",
        "carlanton-m3u8-parser/src/test/resources/media/media-playlist-with-date-range.m3u8":
            "rfc8216bis §4.4.5.1: tags with the same ID MUST have the same value for any attribute that appears in both (START-DATE differs)",
        "Eyevinn-hls-m3u8/m3u8/sample-playlists/media-playlist-with-multiple-dateranges.m3u8": liveWindow,
        "carlanton-m3u8-parser/src/test/resources/open-m3u8/liveMediaPlaylist.m3u8": liveWindow,
        "globocom-m3u8/extracted/BITRATE_PLAYLIST.m3u8": liveWindow,
        "globocom-m3u8/extracted/CUE_OUT_CONT_ALT_PLAYLIST.m3u8": liveWindow,
        "iheartradio-open-m3u8/src/test/resources/liveMediaPlaylist.m3u8": liveWindow,
        "Eyevinn-hls-m3u8/m3u8/sample-playlists/master-with-sessiondata.m3u8": steeringPathway,
        "carlanton-m3u8-parser/src/test/resources/multivariant/apple-multivariant.m3u8": steeringPathway,
        "sethdeckard-m3u8/spec/fixtures/content_steering.m3u8": steeringPathway,
        "Eyevinn-hls-vodtolive/testvectors/hls4/master-nouri.m3u8": closedCaptionsNone,
        "Eyevinn-hls-vodtolive/testvectors/hls4/master.m3u8": closedCaptionsNone,
        "Eyevinn-hls-vodtolive/testvectors/hls7/master-nouri.m3u8": closedCaptionsNone,
        "Eyevinn-hls-vodtolive/testvectors/hls7/master.m3u8": closedCaptionsNone,
        "Eyevinn-hls-vodtolive/testvectors/hls_dolby/index.m3u8": sameGroupMembers,
        "Eyevinn-hls-vodtolive/testvectors/hls_multiaudiotracks/master.m3u8": sameGroupMembers,
        "Eyevinn-hls-vodtolive/testvectors/hls_multiaudiotracks2/master.m3u8": sameGroupMembers,
        "Eyevinn-hls-vodtolive/testvectors/hls_multiaudiotracks3/master.m3u8": sameGroupMembers,
        "carlanton-m3u8-parser/src/test/resources/multivariant/content-steering.m3u8": sameGroupMembers,
        "globocom-m3u8/extracted/CONTENT_STEERING_PLAYLIST.m3u8": sameGroupMembers,
        "rutgersc-m3u8-rs/sample-playlists/master-not-ending-in-newline-1.m3u8": sameGroupMembers,
        "Eyevinn-hls-m3u8/m3u8/sample-playlists/media-playlist-fmp4.m3u8": discontinuitySequence,
        "globocom-m3u8/extracted/DISCONTINUITY_PLAYLIST_WITH_PROGRAM_DATE_TIME.m3u8": discontinuitySequence,
        // Test fixtures named .txt, and references to a TTML file and to a mistyped ".m3u8S".
        "Comcast-mamba/mambaTests/Fixtures/hls_sampleMasterFile.txt": notIdentifiable,
        "Comcast-mamba/mambaTests/Fixtures/hls_singleMediaFile.txt": notIdentifiable,
        "globocom-m3u8/extracted/MULTI_MEDIA_PLAYLIST.m3u8": notIdentifiable,
        "globocom-m3u8/extracted/VARIANT_PLAYLIST_WITH_IMAGE_PLAYLISTS.m3u8": notIdentifiable,
        "sethdeckard-m3u8/spec/fixtures/master_v13.m3u8": supplementalBaseLayer,
    ]

    /// `INVALID` files that the spec allows: the checker is right to report no error.
    static let invalidButAllowedBySpec: [String: String] = [
        "carlanton-m3u8-parser/src/test/resources/media/media-lenient.m3u8": unknownNamesIgnored,
        "carlanton-m3u8-parser/src/test/resources/multivariant/multivariant-lenient.m3u8": unknownNamesIgnored,
    ]

    /// Real disagreements with the spec, kept on purpose: each says what the spec says and what
    /// hlscheck does instead. They count against the agreement.
    static let knownDisagreements: [String: String] = [
        "globocom-m3u8/extracted/SIMPLE_PLAYLIST_COMMALESS_EXTINF.m3u8":
            "RFC 8216 §4.3.2.1 writes the tag #EXTINF:<duration>,[<title>], so the comma is required; hlscheck reports a missing comma as a playlist-lenient warning, not an error, because clients accept it and 14 `valid` corpus files omit it"
    ]
}
