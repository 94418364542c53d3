// `valid` corpus playlists (their source project's parser accepts them) that break a MUST of
// RFC 8216 all the same: the parser is right to report an error. Each entry names the spec
// sentence the file breaks (the first error found in it). The corpus test checks that every file
// listed here does have an error, so the list cannot silently go stale.
//
// Most come from lenient parsers' test suites: snippets without EXT-X-TARGETDURATION, comments
// before #EXTM3U, floating-point EXTINF without EXT-X-VERSION:3, templates with placeholders.

enum CorpusExceptions {
    static let validButBreaksSpec: [String: String] = [
        "Comcast-mamba/mambaTests/Fixtures/Linear Ad Insertion Playlists/linear_ad_insertion_CONTENT_end_ad_forced.m3u8":
            "RFC 8216 §4.3.2.4: IV is a hexadecimal-sequence that specifies a 128-bit unsigned integer",
        "Comcast-mamba/mambaTests/Fixtures/Linear Ad Insertion Playlists/linear_ad_insertion_CONTENT_end_ad_natural.m3u8":
            "RFC 8216 §4.3.2.4: IV is a hexadecimal-sequence that specifies a 128-bit unsigned integer",
        "Comcast-mamba/mambaTests/Fixtures/Linear Ad Insertion Playlists/linear_ad_insertion_CONTENT_mid_ad.m3u8":
            "RFC 8216 §4.3.2.4: IV is a hexadecimal-sequence that specifies a 128-bit unsigned integer",
        "Comcast-mamba/mambaTests/Fixtures/Linear Ad Insertion Playlists/linear_ad_insertion_CONTENT_start_ad.m3u8":
            "RFC 8216 §4.3.2.4: IV is a hexadecimal-sequence that specifies a 128-bit unsigned integer",
        "Comcast-mamba/mambaTests/Fixtures/ThirdPartyTagsTestFixture.txt":
            "RFC 8216 §4.3.2.1: the EXTINF tag is REQUIRED for each Media Segment (a segment is its tags followed by a URI)",
        "Comcast-mamba/mambaTests/Fixtures/hls_master_playlist_sap.m3u8":
            "RFC 8216 §4.3.4.2: the URI line that follows the EXT-X-STREAM-INF tag specifies the Media Playlist",
        "Comcast-mamba/mambaTests/Fixtures/hls_sampleMediaFile.txt":
            "RFC 8216 §7: a playlist MUST indicate an EXT-X-VERSION high enough for the features it uses",
        "Comcast-mamba/mambaTests/Fixtures/hls_writer_parser_roundtrip_tester.txt":
            "RFC 8216 §4.3.4.2: the URI line that follows the EXT-X-STREAM-INF tag specifies the Media Playlist",
        "Eyevinn-hls-m3u8/m3u8/sample-playlists/master-with-closed-captions.m3u8":
            "RFC 8216 §4.3.4.1.1: all members of a Group MUST have different NAME attributes",
        "Eyevinn-hls-m3u8/m3u8/sample-playlists/master-with-hlsv7.m3u8":
            "RFC 8216 §4.3.1.1: the EXTM3U tag MUST be the first line of every Media Playlist and every Master Playlist",
        "Eyevinn-hls-m3u8/m3u8/sample-playlists/master-with-i-frame-stream-inf.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "Eyevinn-hls-m3u8/m3u8/sample-playlists/media-playlist-with-cue-out-in-without-oatcls.m3u8":
            "RFC 8216 §4.3.2.1: the EXTINF tag is REQUIRED for each Media Segment (a segment is its tags followed by a URI)",
        "Eyevinn-hls-m3u8/m3u8/sample-playlists/media-playlist-with-discontinuity.m3u8":
            "RFC 8216 §4.3.1.1: the EXTM3U tag MUST be the first line of every Media Playlist and every Master Playlist",
        "Eyevinn-hls-m3u8/m3u8/sample-playlists/media-playlist-with-iframes-only-and-map.m3u8":
            "RFC 8216 §4.3.2.1: the EXTINF tag is REQUIRED for each Media Segment (a segment is its tags followed by a URI)",
        "Eyevinn-hls-m3u8/m3u8/sample-playlists/media-playlist-with-iframes-only.m3u8":
            "RFC 8216 §4.3.2.1: the EXTINF tag is REQUIRED for each Media Segment (a segment is its tags followed by a URI)",
        "Eyevinn-hls-m3u8/m3u8/sample-playlists/media-playlist-with-key.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "Eyevinn-hls-vodtolive/testvectors/hls_always_0_demux/master.m3u8":
            "RFC 8216 §4.3.4.1: if AUTOSELECT is present, its value MUST be YES if the value of DEFAULT is YES",
        "Eyevinn-hls-vodtolive/testvectors/hls_always_1_demux/master.m3u8":
            "RFC 8216 §4.3.4.1: if AUTOSELECT is present, its value MUST be YES if the value of DEFAULT is YES",
        "Eyevinn-hls-vodtolive/testvectors/hls_always_3_demux/master.m3u8":
            "RFC 8216 §4.3.4.1: if AUTOSELECT is present, its value MUST be YES if the value of DEFAULT is YES",
        "Eyevinn-hls-vodtolive/testvectors/hls_deltatimes/master.m3u8":
            "RFC 8216 §4.3.4.2: AUDIO/VIDEO/SUBTITLES/CLOSED-CAPTIONS MUST match the GROUP-ID of an EXT-X-MEDIA tag of that TYPE",
        "Eyevinn-hls-vodtolive/testvectors/hls_noaudioonly/master.m3u8":
            "RFC 8216 §4.3.4.2: the URI line that follows the EXT-X-STREAM-INF tag specifies the Media Playlist",
        "Eyevinn-hls-vodtolive/testvectors/hls_reload1/master.m3u8":
            "RFC 8216 §4.3.4.2: AUDIO/VIDEO/SUBTITLES/CLOSED-CAPTIONS MUST match the GROUP-ID of an EXT-X-MEDIA tag of that TYPE",
        "Eyevinn-hls-vodtolive/testvectors/hls_reload1_audio/master.m3u8":
            "RFC 8216 §4.3.4.1: if AUTOSELECT is present, its value MUST be YES if the value of DEFAULT is YES",
        "Eyevinn-hls-vodtolive/testvectors/hls_reload2/master.m3u8":
            "RFC 8216 §4.3.4.2: AUDIO/VIDEO/SUBTITLES/CLOSED-CAPTIONS MUST match the GROUP-ID of an EXT-X-MEDIA tag of that TYPE",
        "Eyevinn-hls-vodtolive/testvectors/hls_reload2_audio/master.m3u8":
            "RFC 8216 §4.3.4.1: if AUTOSELECT is present, its value MUST be YES if the value of DEFAULT is YES",
        "Eyevinn-hls-vodtolive/testvectors/hls_subs2/master.m3u8":
            "RFC 8216 §4.3.4.2: AUDIO/VIDEO/SUBTITLES/CLOSED-CAPTIONS MUST match the GROUP-ID of an EXT-X-MEDIA tag of that TYPE",
        "carlanton-m3u8-parser/src/test/resources/media/iframe.m3u8":
            "RFC 8216 §4.3.2.2: if o is not present, a previous Media Segment MUST appear and MUST be a sub-range of the same media resource",
        "carlanton-m3u8-parser/src/test/resources/multivariant/multivariant-variables.m3u8":
            "RFC 8216 §7: a playlist MUST indicate an EXT-X-VERSION high enough for the features it uses",
        "carlanton-m3u8-parser/src/test/resources/open-m3u8/negativeDurationMediaPlaylist.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "carlanton-m3u8-parser/src/test/resources/open-m3u8/playlistWithMultipleEncryptedMediaSegments.m3u8":
            "RFC 8216 §7: a playlist MUST indicate an EXT-X-VERSION high enough for the features it uses",
        "carlanton-m3u8-parser/src/test/resources/open-m3u8/twoMediaPlaylists.m3u8":
            "RFC 8216 §4.3.1.1: the EXTM3U tag MUST be the first line of every Media Playlist and every Master Playlist",
        "globocom-m3u8/extracted/CUE_OUT_INVALID_PLAYLIST.m3u8":
            "RFC 8216 §7: a playlist MUST indicate an EXT-X-VERSION high enough for the features it uses",
        "globocom-m3u8/extracted/CUE_OUT_NO_DURATION_PLAYLIST.m3u8":
            "RFC 8216 §7: a playlist MUST indicate an EXT-X-VERSION high enough for the features it uses",
        "globocom-m3u8/extracted/CUE_OUT_WITH_DURATION_KEY_PLAYLIST.m3u8":
            "RFC 8216 §7: a playlist MUST indicate an EXT-X-VERSION high enough for the features it uses",
        "globocom-m3u8/extracted/CUE_OUT_WITH_DURATION_PLAYLIST.m3u8":
            "RFC 8216 §7: a playlist MUST indicate an EXT-X-VERSION high enough for the features it uses",
        "globocom-m3u8/extracted/CUE_OUT_WITH_EXPLICIT_DURATION_PLAYLIST.m3u8":
            "RFC 8216 §7: a playlist MUST indicate an EXT-X-VERSION high enough for the features it uses",
        "globocom-m3u8/extracted/DATERANGE_ENDDATE_SCTECMD_PLAYLIST.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "globocom-m3u8/extracted/DATERANGE_IN_PART_PLAYLIST.m3u8":
            "RFC 8216 §4.3.3.1: the EXT-X-TARGETDURATION tag is REQUIRED",
        "globocom-m3u8/extracted/DATERANGE_SCTE35_OUT_AND_IN_PLAYLIST.m3u8":
            "RFC 8216 §4.3.3.1: the EXT-X-TARGETDURATION tag is REQUIRED",
        "globocom-m3u8/extracted/DATERANGE_SIMPLE_PLAYLIST.m3u8":
            "RFC 8216 §4.3.3.1: the EXT-X-TARGETDURATION tag is REQUIRED",
        "globocom-m3u8/extracted/GAP_IN_PARTS_PLAYLIST.m3u8":
            "RFC 8216 §4.3.3.1: the EXT-X-TARGETDURATION tag is REQUIRED",
        "globocom-m3u8/extracted/IPTV_PLAYLIST_WITH_CUSTOM_TAGS.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "globocom-m3u8/extracted/IPTV_PLAYLIST_WITH_EARLY_EXTINF.m3u8":
            "RFC 8216 §4.3.3.1: the EXT-X-TARGETDURATION tag is REQUIRED",
        "globocom-m3u8/extracted/LOW_LATENCY_WITH_PRELOAD_AND_BYTERANGES_PLAYLIST.m3u8":
            "RFC 8216 §7: a playlist MUST indicate an EXT-X-VERSION high enough for the features it uses",
        "globocom-m3u8/extracted/MEDIA_WITHOUT_URI_PLAYLIST.m3u8":
            "RFC 8216 §4.3.4.2: AUDIO/VIDEO/SUBTITLES/CLOSED-CAPTIONS MUST match the GROUP-ID of an EXT-X-MEDIA tag of that TYPE",
        "globocom-m3u8/extracted/PLAYLIST_WITH_MULTIPLE_KEYS_UNENCRYPTED_AND_ENCRYPTED_NONE.m3u8":
            "RFC 8216 §4.3.2.4: if the encryption method is NONE, other attributes MUST NOT be present",
        "globocom-m3u8/extracted/PLAYLIST_WITH_NEGATIVE_MEDIA_SEQUENCE.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "globocom-m3u8/extracted/PLAYLIST_WITH_NON_INTEGER_DURATION.m3u8":
            "RFC 8216 §7: a playlist MUST indicate an EXT-X-VERSION high enough for the features it uses",
        "globocom-m3u8/extracted/PLAYLIST_WITH_SESSION_ENCRYPTED_SEGMENTS.m3u8":
            "RFC 8216 §4.3.4: clients MUST fail to parse a playlist that contains both a Master Playlist tag and a Media Playlist or Media Segment tag",
        "globocom-m3u8/extracted/PLAYLIST_WITH_SESSION_ENCRYPTED_SEGMENTS_AND_IV.m3u8":
            "RFC 8216 §4.3.4: clients MUST fail to parse a playlist that contains both a Master Playlist tag and a Media Playlist or Media Segment tag",
        "globocom-m3u8/extracted/PLAYLIST_WITH_SESSION_ENCRYPTED_SEGMENTS_AND_IV_SORTED.m3u8":
            "RFC 8216 §4.3.4: clients MUST fail to parse a playlist that contains both a Master Playlist tag and a Media Playlist or Media Segment tag",
        "globocom-m3u8/extracted/PLAYLIST_WITH_SLASH_IN_QUERY_STRING.m3u8":
            "RFC 8216 §4.3.2.1: the EXTINF tag is REQUIRED for each Media Segment (a segment is its tags followed by a URI)",
        "globocom-m3u8/extracted/PLAYLIST_WITH_TAG_MEDIA_READY.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "globocom-m3u8/extracted/SIMPLE_PLAYLIST_TITLE_COMMA.m3u8":
            "RFC 8216 §4.3.3.1: the EXT-X-TARGETDURATION tag is REQUIRED",
        "globocom-m3u8/extracted/SIMPLE_PLAYLIST_WITH_EVENT_PLAYLIST_TYPE.m3u8":
            "RFC 8216 §7: a playlist MUST indicate an EXT-X-VERSION high enough for the features it uses",
        "globocom-m3u8/extracted/SIMPLE_PLAYLIST_WITH_INDEPENDENT_SEGMENTS.m3u8":
            "RFC 8216 §7: a playlist MUST indicate an EXT-X-VERSION high enough for the features it uses",
        "globocom-m3u8/extracted/SIMPLE_PLAYLIST_WITH_VERY_SHORT_DURATION.m3u8":
            "RFC 8216 §7: a playlist MUST indicate an EXT-X-VERSION high enough for the features it uses",
        "globocom-m3u8/extracted/SIMPLE_PLAYLIST_WITH_VOD_PLAYLIST_TYPE.m3u8":
            "RFC 8216 §7: a playlist MUST indicate an EXT-X-VERSION high enough for the features it uses",
        "globocom-m3u8/extracted/VARIANT_PLAYLIST_WITH_BANDWIDTH_FLOAT.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "globocom-m3u8/extracted/VARIANT_PLAYLIST_WITH_CC_SUBS_AND_AUDIO.m3u8":
            "RFC 8216 §4.3.4.2: AUDIO/VIDEO/SUBTITLES/CLOSED-CAPTIONS MUST match the GROUP-ID of an EXT-X-MEDIA tag of that TYPE",
        "globocom-m3u8/extracted/VARIANT_PLAYLIST_WITH_HDCP_LEVEL.m3u8":
            "RFC 8216 §4.3.4.2: every EXT-X-STREAM-INF tag MUST include the BANDWIDTH attribute",
        "globocom-m3u8/extracted/VARIANT_PLAYLIST_WITH_IFRAME_HDCP_LEVEL.m3u8":
            "RFC 8216 §4.3.4.2: every EXT-X-STREAM-INF tag MUST include the BANDWIDTH attribute",
        "globocom-m3u8/extracted/VARIANT_PLAYLIST_WITH_IFRAME_STABLE_VARIANT_ID.m3u8":
            "RFC 8216 §4.3.1.1: the EXTM3U tag MUST be the first line of every Media Playlist and every Master Playlist",
        "globocom-m3u8/extracted/VARIANT_PLAYLIST_WITH_IFRAME_VIDEO_RANGE.m3u8":
            "RFC 8216 §4.3.4.2: every EXT-X-STREAM-INF tag MUST include the BANDWIDTH attribute",
        "globocom-m3u8/extracted/VARIANT_PLAYLIST_WITH_NONE_CC_AND_AUDIO.m3u8":
            "RFC 8216 §4.3.4.2: AUDIO/VIDEO/SUBTITLES/CLOSED-CAPTIONS MUST match the GROUP-ID of an EXT-X-MEDIA tag of that TYPE",
        "globocom-m3u8/extracted/VARIANT_PLAYLIST_WITH_REQ_VIDEO_LAYOUT.m3u8":
            "RFC 8216 §4.3.4.2: AUDIO/VIDEO/SUBTITLES/CLOSED-CAPTIONS MUST match the GROUP-ID of an EXT-X-MEDIA tag of that TYPE",
        "globocom-m3u8/extracted/VARIANT_PLAYLIST_WITH_STABLE_RENDITION_ID.m3u8":
            "RFC 8216 §4.3.1.1: the EXTM3U tag MUST be the first line of every Media Playlist and every Master Playlist",
        "globocom-m3u8/extracted/VARIANT_PLAYLIST_WITH_STABLE_VARIANT_ID.m3u8":
            "RFC 8216 §4.3.1.1: the EXTM3U tag MUST be the first line of every Media Playlist and every Master Playlist",
        "globocom-m3u8/extracted/VARIANT_PLAYLIST_WITH_VIDEO_CC_SUBS_AND_AUDIO.m3u8":
            "RFC 8216 §4.3.4.2: AUDIO/VIDEO/SUBTITLES/CLOSED-CAPTIONS MUST match the GROUP-ID of an EXT-X-MEDIA tag of that TYPE",
        "globocom-m3u8/extracted/VARIANT_PLAYLIST_WITH_VIDEO_RANGE.m3u8":
            "RFC 8216 §4.3.4.2: every EXT-X-STREAM-INF tag MUST include the BANDWIDTH attribute",
        "globocom-m3u8/extracted/VERSION_PLAYLIST.m3u8":
            "RFC 8216 §4.3.3.1: the EXT-X-TARGETDURATION tag is REQUIRED",
        "globocom-m3u8/extracted/WINDOWS_PLAYLIST.m3u8":
            "RFC 8216 §4.3.1.1: the EXTM3U tag MUST be the first line of every Media Playlist and every Master Playlist",
        "globocom-m3u8/tests/playlists/relative-playlist.m3u8":
            "RFC 8216 §4.3.4: clients MUST fail to parse a playlist that contains both a Master Playlist tag and a Media Playlist or Media Segment tag",
        "grafov-m3u8/sample-playlists/master-with-hlsv7.m3u8":
            "RFC 8216 §4.3.1.1: the EXTM3U tag MUST be the first line of every Media Playlist and every Master Playlist",
        "grafov-m3u8/sample-playlists/master-with-i-frame-stream-inf.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "grafov-m3u8/sample-playlists/media-playlist-with-cue-out-in-without-oatcls.m3u8":
            "RFC 8216 §4.3.2.1: the EXTINF tag is REQUIRED for each Media Segment (a segment is its tags followed by a URI)",
        "grafov-m3u8/sample-playlists/media-playlist-with-discontinuity.m3u8":
            "RFC 8216 §4.3.1.1: the EXTM3U tag MUST be the first line of every Media Playlist and every Master Playlist",
        "iheartradio-open-m3u8/src/test/resources/twoMediaPlaylists.m3u8":
            "RFC 8216 §4.3.1.1: the EXTM3U tag MUST be the first line of every Media Playlist and every Master Playlist",
        "rutgersc-m3u8-rs/playlist.m3u8":
            "RFC 8216 §7: a playlist MUST indicate an EXT-X-VERSION high enough for the features it uses",
        "rutgersc-m3u8-rs/sample-playlists/master-not-ending-in-newline.m3u8":
            "RFC 8216 §4.3.4.2: the URI line that follows the EXT-X-STREAM-INF tag specifies the Media Playlist",
        "rutgersc-m3u8-rs/sample-playlists/master-with-i-frame-stream-inf.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "rutgersc-m3u8-rs/sample-playlists/masterplaylist.m3u8":
            "RFC 8216 §4.3.4.2: the URI line that follows the EXT-X-STREAM-INF tag specifies the Media Playlist",
        "rutgersc-m3u8-rs/sample-playlists/media-not-ending-in-newline.m3u8":
            "RFC 8216 §4.3.2.4: IV is a hexadecimal-sequence that specifies a 128-bit unsigned integer",
        "rutgersc-m3u8-rs/sample-playlists/media-playlist-with-cues.m3u8":
            "RFC 8216 §4.3.3.1: the EXT-X-TARGETDURATION tag is REQUIRED",
        "rutgersc-m3u8-rs/sample-playlists/mediaplaylist.m3u8":
            "RFC 8216 §4.3.2.4: IV is a hexadecimal-sequence that specifies a 128-bit unsigned integer",
        "sethdeckard-m3u8/spec/fixtures/date_range_scte35.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "sethdeckard-m3u8/spec/fixtures/daterange_playlist.m3u8":
            "RFC 8216 §4.3.2.7.1: an EXT-X-DATERANGE tag with END-ON-NEXT=YES MUST have a CLASS attribute",
        "sethdeckard-m3u8/spec/fixtures/iframes.m3u8":
            "RFC 8216 §4.3.3.1: the EXT-X-TARGETDURATION tag is REQUIRED",
        "sethdeckard-m3u8/spec/fixtures/map_playlist.m3u8":
            "RFC 8216 §7: a playlist MUST indicate an EXT-X-VERSION high enough for the features it uses",
        "sethdeckard-m3u8/spec/fixtures/master_full.m3u8":
            "RFC 8216 §4.3.4.1: the FORCED attribute MUST NOT be present unless the TYPE is SUBTITLES",
        "sethdeckard-m3u8/spec/fixtures/variant_angles.m3u8":
            "RFC 8216 §4.3.4.1: INSTREAM-ID is REQUIRED if the TYPE attribute is CLOSED-CAPTIONS",
        "sethdeckard-m3u8/spec/fixtures/variant_audio.m3u8":
            "RFC 8216 §4.3.4.1: the FORCED attribute MUST NOT be present unless the TYPE is SUBTITLES",
        "videojs-http-streaming/test/manifests/byteRange.m3u8":
            "RFC 8216 §4.3.2.2: if o is not present, a previous Media Segment MUST appear and MUST be a sub-range of the same media resource",
        "videojs-http-streaming/test/manifests/emptyMediaSequence.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "videojs-http-streaming/test/manifests/emptyPlaylistType.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "videojs-http-streaming/test/manifests/emptyTargetDuration.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "videojs-http-streaming/test/manifests/extXPlaylistTypeInvalidPlaylist.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "videojs-http-streaming/test/manifests/extinf.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "videojs-http-streaming/test/manifests/invalidMediaSequence.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "videojs-http-streaming/test/manifests/invalidPlaylistType.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "videojs-http-streaming/test/manifests/invalidTargetDuration.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "videojs-http-streaming/test/manifests/liveMissingSegmentDuration.m3u8":
            "RFC 8216 §4.3.2.1: the EXTINF tag is REQUIRED for each Media Segment (a segment is its tags followed by a URI)",
        "videojs-http-streaming/test/manifests/main-captions.m3u8":
            "RFC 8216 §4.3.1.1: the EXTM3U tag MUST be the first line of every Media Playlist and every Master Playlist",
        "videojs-http-streaming/test/manifests/main-subtitles.m3u8":
            "RFC 8216 §4.3.1.1: the EXTM3U tag MUST be the first line of every Media Playlist and every Master Playlist",
        "videojs-http-streaming/test/manifests/main.m3u8":
            "RFC 8216 §4.3.1.1: the EXTM3U tag MUST be the first line of every Media Playlist and every Master Playlist",
        "videojs-http-streaming/test/manifests/manifestExtTTargetdurationNegative.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "videojs-http-streaming/test/manifests/manifestNoExtM3u.m3u8":
            "RFC 8216 §4.3.1.1: the EXTM3U tag MUST be the first line of every Media Playlist and every Master Playlist",
        "videojs-http-streaming/test/manifests/mediaSequence.m3u8":
            "RFC 8216 §7: a playlist MUST indicate an EXT-X-VERSION high enough for the features it uses",
        "videojs-http-streaming/test/manifests/missingExtinf.m3u8":
            "RFC 8216 §4.3.2.1: the EXTINF tag is REQUIRED for each Media Segment (a segment is its tags followed by a URI)",
        "videojs-http-streaming/test/manifests/missingMediaSequence.m3u8":
            "RFC 8216 §7: a playlist MUST indicate an EXT-X-VERSION high enough for the features it uses",
        "videojs-http-streaming/test/manifests/missingSegmentDuration.m3u8":
            "RFC 8216 §4.3.2.1: the EXTINF tag is REQUIRED for each Media Segment (a segment is its tags followed by a URI)",
        "videojs-http-streaming/test/manifests/multipleTargetDurations.m3u8":
            "RFC 8216 §4.3.2.1: the EXTINF tag is REQUIRED for each Media Segment (a segment is its tags followed by a URI)",
        "videojs-http-streaming/test/manifests/negativeMediaSequence.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "videojs-http-streaming/test/manifests/one-rendition.m3u8":
            "RFC 8216 §4.3.1.1: the EXTM3U tag MUST be the first line of every Media Playlist and every Master Playlist",
        "videojs-http-streaming/test/manifests/playlistMediaSequenceHigher.m3u8":
            "RFC 8216 §7: a playlist MUST indicate an EXT-X-VERSION high enough for the features it uses",
        "videojs-http-streaming/test/manifests/playlist_allow_cache_template.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "videojs-http-streaming/test/manifests/playlist_byte_range_template.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "videojs-http-streaming/test/manifests/playlist_extinf_template.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "videojs-http-streaming/test/manifests/playlist_media_sequence_template.m3u8":
            "RFC 8216 §4.3.2.1: the EXTINF tag is REQUIRED for each Media Segment (a segment is its tags followed by a URI)",
        "videojs-http-streaming/test/manifests/playlist_target_duration_template.m3u8":
            "RFC 8216 §4.3.2.1: the EXTINF tag is REQUIRED for each Media Segment (a segment is its tags followed by a URI)",
        "videojs-http-streaming/test/manifests/playlist_type_template.m3u8":
            "RFC 8216 §4.3.2.1: the EXTINF tag is REQUIRED for each Media Segment (a segment is its tags followed by a URI)",
        "videojs-http-streaming/test/manifests/streamInfInvalid.m3u8":
            "RFC 8216 §4.3.1.1: the EXTM3U tag MUST be the first line of every Media Playlist and every Master Playlist",
        "videojs-http-streaming/test/manifests/two-renditions.m3u8":
            "RFC 8216 §4.3.1.1: the EXTM3U tag MUST be the first line of every Media Playlist and every Master Playlist",
        "videojs-http-streaming/test/manifests/twoMediaSequences.m3u8":
            "RFC 8216 §4.3.1.2/§4.3.3: EXT-X-VERSION and the Media Playlist tags MUST NOT appear more than once",
        "videojs-http-streaming/test/manifests/versionInvalid.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "videojs-m3u8-parser/test/fixtures/integration/byteRange.m3u8":
            "RFC 8216 §4.3.2.2: if o is not present, a previous Media Segment MUST appear and MUST be a sub-range of the same media resource",
        "videojs-m3u8-parser/test/fixtures/integration/extinf.m3u8":
            "RFC 8216 §4.2 / §4.3: a tag or attribute value does not match the type its tag defines",
        "videojs-m3u8-parser/test/fixtures/integration/llhls-byte-range.m3u8":
            "RFC 8216 §4.3.2.2: if o is not present, a previous Media Segment MUST appear and MUST be a sub-range of the same media resource",
        "videojs-m3u8-parser/test/fixtures/integration/llhls-delta-byte-range.m3u8":
            "RFC 8216 §4.3.2.1: the EXTINF tag is REQUIRED for each Media Segment (a segment is its tags followed by a URI)",
        "videojs-m3u8-parser/test/fixtures/integration/master.m3u8":
            "RFC 8216 §4.3.1.1: the EXTM3U tag MUST be the first line of every Media Playlist and every Master Playlist",
        "videojs-m3u8-parser/test/fixtures/integration/mediaSequence.m3u8":
            "RFC 8216 §7: a playlist MUST indicate an EXT-X-VERSION high enough for the features it uses",
        "videojs-m3u8-parser/test/fixtures/integration/playlistMediaSequenceHigher.m3u8":
            "RFC 8216 §7: a playlist MUST indicate an EXT-X-VERSION high enough for the features it uses",
        "videojs-m3u8-parser/test/fixtures/integration/start.m3u8":
            "RFC 8216 §4.3.1.1: the EXTM3U tag MUST be the first line of every Media Playlist and every Master Playlist",
        // Written before bis-22; they break what it asks.
        "globocom-m3u8/extracted/MULTIPLE_MAP_URI_PLAYLIST.m3u8": mapKeyIV,
        "videojs-m3u8-parser/test/fixtures/integration/diff-init-key.m3u8": mapKeyIV,
        "videojs-m3u8-parser/test/fixtures/integration/llhlsDelta.m3u8": skippedDateRangesVersion,
        "sethdeckard-m3u8/spec/fixtures/ll_hls_advanced.m3u8": skippedDateRangesVersion,
    ]

    private static let mapKeyIV =
        "bis-22 §4.4.4.5: if the Media Initialization Section declared by an EXT-X-MAP tag is encrypted with a METHOD of AES-128, the IV attribute of the EXT-X-KEY tag that applies to the EXT-X-MAP is REQUIRED"
    private static let skippedDateRangesVersion =
        "bis-22 §8: a Playlist Delta Update whose EXT-X-SKIP skips EXT-X-DATERANGE tags (RECENTLY-REMOVED-DATERANGES) requires EXT-X-VERSION 10 or higher"
}
