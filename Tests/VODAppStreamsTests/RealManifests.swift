/// Manifests real services published, kept by other projects as test data. Each says where it
/// comes from; they are parsed as they are, byte for byte.
enum RealManifests {
    /// Axinom's DASH test vector with Common Encryption and a DASH-IF ClearKey license URL: one video
    /// AdaptationSet whose five AVC representations share an AdaptationSet-level `$Number%04d$`
    /// template. From yt-dlp, `test/testdata/mpd/clearkey_cenc.mpd`.
    static let ytdlpClearKeyCENC = #"""
    <?xml version="1.0" encoding="utf-8"?>
    <!--
    Version information:
    Axinom.MediaProcessing v3.0.0 targeting General Purpose Media Format specification v7
    ffmpeg version N-81423-g61fac0e Copyright (c) 2000-2016 the FFmpeg developers
    x265 [info]: HEVC encoder version 2.0+12-49a0d1176aef5bc6
    x264 0.148.2705 3f5ed56
    MP4Box - GPAC version 0.6.2-DEV-rev683-g7b29fbe-master
    MediaInfoLib - v0.7.87

    For more info about this video, see https://github.com/Axinom/dash-test-vectors
    -->
    <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" minBufferTime="PT1.500S" type="static" mediaPresentationDuration="PT0H12M14.000S" maxSegmentDuration="PT0H0M4.000S" profiles="urn:mpeg:dash:profile:isoff-live:2011,http://dashif.org/guidelines/dash264" xmlns:cenc="urn:mpeg:cenc:2013" xmlns:clearkey="http://dashif.org/guidelines/clearKey">
    	<Period duration="PT0H12M14.000S">
    		<AdaptationSet segmentAlignment="true" group="1" maxWidth="1920" maxHeight="1080" maxFrameRate="24" par="16:9" lang="und">
    			<ContentProtection schemeIdUri="urn:mpeg:dash:mp4protection:2011" value="cenc" cenc:default_KID="9eb4050d-e44b-4802-932e-27d75083e266" />
    			<ContentProtection value="ClearKey1.0" schemeIdUri="urn:uuid:e2719d58-a985-b3c9-781a-b030af78d30e">
    				<clearkey:Laurl Lic_type="EME-1.0">https://drm-clearkey-testvectors.axtest.net/AcquireLicense</clearkey:Laurl>
    			</ContentProtection>
    			<Role schemeIdUri="urn:mpeg:dash:role:2011" value="main" />
    			<SegmentTemplate timescale="24" media="$RepresentationID$/$Number%04d$.m4s" startNumber="1" duration="96" initialization="$RepresentationID$/init.mp4" />
    			<Representation id="1" mimeType="video/mp4" codecs="avc1.64001f" width="512" height="288" frameRate="24" sar="1:1" startWithSAP="1" bandwidth="389802"></Representation>
    			<Representation id="2" mimeType="video/mp4" codecs="avc1.64001f" width="640" height="360" frameRate="24" sar="1:1" startWithSAP="1" bandwidth="764935"></Representation>
    			<Representation id="3" mimeType="video/mp4" codecs="avc1.640028" width="852" height="480" frameRate="24" sar="640:639" startWithSAP="1" bandwidth="1120439"></Representation>
    			<Representation id="4" mimeType="video/mp4" codecs="avc1.640032" width="1280" height="720" frameRate="24" sar="1:1" startWithSAP="1" bandwidth="1945258"></Representation>
    			<Representation id="5" mimeType="video/mp4" codecs="avc1.640033" width="1920" height="1080" frameRate="24" sar="1:1" startWithSAP="1" bandwidth="2726377"></Representation>
    		</AdaptationSet>
    	</Period>
    </MPD>

    """#

    /// Azure Media Services with DASH segment encryption (SEA, AES-128-CBC): AdaptationSet-level
    /// `$Bandwidth$`/`$Time$` templates over SegmentTimelines, one English audio, three videos. From
    /// yt-dlp, `test/testdata/mpd/dash_sea.mpd`.
    static let ytdlpDashSEA = #"""
    <?xml version="1.0" encoding="utf-8"?>
    <MPD
    	xmlns="urn:mpeg:dash:schema:mpd:2011"
    	xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" profiles="urn:mpeg:dash:profile:isoff-live:2011" type="static"
    	xmlns:sea="urn:mpeg:dash:schema:sea:2012" mediaPresentationDuration="PT3M32.949S" minBufferTime="PT3S">
    	<Period>
    		<AdaptationSet id="1" group="5" profiles="ccff" bitstreamSwitching="false" segmentAlignment="true" contentType="audio" mimeType="audio/mp4" codecs="mp4a.40.2" lang="en">
    			<ContentProtection schemeIdUri="urn:mpeg:dash:sea:2012">
    				<sea:SegmentEncryption schemeIdUri="urn:mpeg:dash:sea:aes128-cbc:2013"/>
    				<sea:KeySystem keySystemUri="urn:mpeg:dash:sea:keysys:http:2013"/>
    				<sea:CryptoPeriod keyUriTemplate="https://zavideoplatform.keydelivery.eastus.media.azure.net/?kid=9280864f-064e-48c0-97e0-f2bcb1d8d012" IV="0x7BD31E102B0CE9CCD39691782533656C"/>
    			</ContentProtection>
    			<Label>aac_eng_2_127999_2_1</Label>
    			<SegmentTemplate timescale="10000000" media="QualityLevels($Bandwidth$)/Fragments(aac_eng_2_127999_2_1=$Time$,format=mpd-time-csf)" initialization="QualityLevels($Bandwidth$)/Fragments(aac_eng_2_127999_2_1=i,format=mpd-time-csf)">
    				<SegmentTimeline>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333" r="1"/>
    					<S d="20053334"/>
    					<S d="20053333"/>
    					<S d="3840000"/>
    				</SegmentTimeline>
    			</SegmentTemplate>
    			<Representation id="5_A_aac_eng_2_127999_2_1_1" bandwidth="127999" audioSamplingRate="48000"/>
    		</AdaptationSet>
    		<AdaptationSet id="2" group="1" profiles="ccff" bitstreamSwitching="false" segmentAlignment="true" contentType="video" mimeType="video/mp4" codecs="avc1.640028" maxWidth="1920" maxHeight="1080" startWithSAP="1">
    			<ContentProtection schemeIdUri="urn:mpeg:dash:sea:2012">
    				<sea:SegmentEncryption schemeIdUri="urn:mpeg:dash:sea:aes128-cbc:2013"/>
    				<sea:KeySystem keySystemUri="urn:mpeg:dash:sea:keysys:http:2013"/>
    				<sea:CryptoPeriod keyUriTemplate="https://zavideoplatform.keydelivery.eastus.media.azure.net/?kid=9280864f-064e-48c0-97e0-f2bcb1d8d012" IV="0x7BD31E102B0CE9CCD39691782533656C"/>
    			</ContentProtection>
    			<SegmentTemplate timescale="10000000" media="QualityLevels($Bandwidth$)/Fragments(video=$Time$,format=mpd-time-csf)" initialization="QualityLevels($Bandwidth$)/Fragments(video=i,format=mpd-time-csf)">
    				<SegmentTimeline>
    					<S d="20000000" r="105"/>
    					<S d="8666666"/>
    				</SegmentTimeline>
    			</SegmentTemplate>
    			<Representation id="1_V_video_1" bandwidth="628102" width="1920" height="1080"/>
    			<Representation id="1_V_video_2" bandwidth="422519" codecs="avc1.64001F" width="1280" height="720"/>
    			<Representation id="1_V_video_3" bandwidth="258591" codecs="avc1.64001F" width="960" height="540"/>
    		</AdaptationSet>
    	</Period>
    </MPD>

    """#

    /// A 44-minute programme (isoff-main) in single files addressed by SegmentBase `indexRange`: one
    /// 1080p video, two English audio sets (main, audio description) on the same file, a WebVTT set.
    /// From yt-dlp, `test/testdata/mpd/role.mpd`.
    static let ytdlpRole = #"""
    <?xml version="1.0" encoding="UTF-8"?>
    <MPD xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="urn:mpeg:dash:schema:mpd:2011" xsi:schemaLocation="urn:mpeg:dash:schema:mpd:2011 http://standards.iso.org/ittf/PubliclyAvailableStandards/MPEG-DASH_schema_files/DASH-MPD.xsd" type="static" minBufferTime="PT30S" profiles="urn:mpeg:dash:profile:isoff-main:2011" mediaPresentationDuration="PT43M54.090S">
      <Period start="PT0S" duration="PT43M54.090S" id="1">
        <AdaptationSet mimeType="video/mp4" frameRate="25/1" segmentAlignment="true" subsegmentAlignment="true" startWithSAP="1" subsegmentStartsWithSAP="1" bitstreamSwitching="false" id="1" group="2">
          <Representation id="1" width="1920" height="1080" bandwidth="6000000" codecs="avc1.4d4028">
            <BaseURL>MPEGDASH_6000_v.mp4</BaseURL>
            <SegmentBase indexRange="1490-17345">
              <Initialization range="0-1489"/>
            </SegmentBase>
          </Representation>
        </AdaptationSet>
        <AdaptationSet mimeType="audio/mp4" lang="en" segmentAlignment="0" id="2" group="1">
          <Label>English</Label>
          <Representation id="10" bandwidth="96000" audioSamplingRate="48000" codecs="mp4a.40.2">
            <BaseURL>MPEGDASH_96_a.mp4</BaseURL>
            <SegmentBase indexRange="1410-17265">
              <Initialization range="0-1409"/>
            </SegmentBase>
            <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/>
          </Representation>
          <Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"/>
        </AdaptationSet>
        <AdaptationSet mimeType="audio/mp4" lang="en" segmentAlignment="0" id="3" group="1">
          <Label>English (Audio Description)</Label>
          <Accessibility schemeIdUri="urn:tva:metadata:cs:AudioPurposeCS:2007" value="1"/>
          <Role schemeIdUri="urn:mpeg:dash:role:2011" value="description"/>
          <Representation id="12" bandwidth="96000" audioSamplingRate="48000" codecs="mp4a.40.2">
            <BaseURL>MPEGDASH_96_a.mp4</BaseURL>
            <SegmentBase indexRange="1410-17265">
              <Initialization range="0-1409"/>
            </SegmentBase>
            <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/>
          </Representation>
        </AdaptationSet>
        <AdaptationSet mimeType="text/vtt" lang="en" id="4" group="4">
          <Role schemeIdUri="urn:mpeg:dash:role" value="subtitle"/>
          <Label>English</Label>
          <Representation id="14" bandwidth="256">
            <BaseURL>subtitles.mpd</BaseURL>
          </Representation>
        </AdaptationSet>
      </Period>
    </MPD>

    """#

    /// Unified Streaming (USP 1.10) on-demand: a Period-level `BaseURL`, `$Time$` templates over long
    /// SegmentTimelines, one audio, one TTML (`stpp`) subtitle set, five videos up to 720p. From
    /// yt-dlp, `test/testdata/mpd/subtitles.mpd`.
    static let ytdlpSubtitles = #"""
    <?xml version="1.0" encoding="utf-8"?>
    <!-- Created with Unified Streaming Platform (version=1.10.18-20255) -->
    <MPD
      xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
      xmlns="urn:mpeg:dash:schema:mpd:2011"
      xsi:schemaLocation="urn:mpeg:dash:schema:mpd:2011 http://standards.iso.org/ittf/PubliclyAvailableStandards/MPEG-DASH_schema_files/DASH-MPD.xsd"
      type="static"
      mediaPresentationDuration="PT14M48S"
      maxSegmentDuration="PT1M"
      minBufferTime="PT10S"
      profiles="urn:mpeg:dash:profile:isoff-live:2011">
      <Period
        id="1"
        duration="PT14M48S">
        <BaseURL>dash/</BaseURL>
        <AdaptationSet
          id="1"
          group="1"
          contentType="audio"
          segmentAlignment="true"
          audioSamplingRate="48000"
          mimeType="audio/mp4"
          codecs="mp4a.40.2"
          startWithSAP="1">
          <AudioChannelConfiguration
            schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011"
            value="2" />
          <Role schemeIdUri="urn:mpeg:dash:role:2011" value="main" />
          <SegmentTemplate
            timescale="48000"
            initialization="3144-kZT4LWMQw6Rh7Kpd-$RepresentationID$.dash"
            media="3144-kZT4LWMQw6Rh7Kpd-$RepresentationID$-$Time$.dash">
            <SegmentTimeline>
              <S t="0" d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="96256" r="2" />
              <S d="95232" />
              <S d="3584" />
            </SegmentTimeline>
          </SegmentTemplate>
          <Representation
            id="audio=128001"
            bandwidth="128001">
          </Representation>
        </AdaptationSet>
        <AdaptationSet
          id="2"
          group="3"
          contentType="text"
          lang="en"
          label="English (US)"
          mimeType="application/mp4"
          codecs="stpp"
          startWithSAP="1">
          <Role schemeIdUri="urn:mpeg:dash:role:2011" value="subtitle" />
          <SegmentTemplate
            timescale="1000"
            initialization="3144-kZT4LWMQw6Rh7Kpd-$RepresentationID$.dash"
            media="3144-kZT4LWMQw6Rh7Kpd-$RepresentationID$-$Time$.dash">
            <SegmentTimeline>
              <S t="0" d="60000" r="9" />
              <S d="24000" />
            </SegmentTimeline>
          </SegmentTemplate>
          <Representation
            id="textstream_eng=1000"
            bandwidth="1000">
          </Representation>
        </AdaptationSet>
        <AdaptationSet
          id="3"
          group="2"
          contentType="video"
          par="960:409"
          minBandwidth="100000"
          maxBandwidth="4482000"
          maxWidth="1689"
          maxHeight="720"
          segmentAlignment="true"
          mimeType="video/mp4"
          codecs="avc1.4D401F"
          startWithSAP="1">
          <Role schemeIdUri="urn:mpeg:dash:role:2011" value="main" />
          <SegmentTemplate
            timescale="12288"
            initialization="3144-kZT4LWMQw6Rh7Kpd-$RepresentationID$.dash"
            media="3144-kZT4LWMQw6Rh7Kpd-$RepresentationID$-$Time$.dash">
            <SegmentTimeline>
              <S t="0" d="24576" r="443" />
            </SegmentTimeline>
          </SegmentTemplate>
          <Representation
            id="video=100000"
            bandwidth="100000"
            width="336"
            height="144"
            sar="2880:2863"
            scanType="progressive">
          </Representation>
          <Representation
            id="video=326000"
            bandwidth="326000"
            width="562"
            height="240"
            sar="115200:114929"
            scanType="progressive">
          </Representation>
          <Representation
            id="video=698000"
            bandwidth="698000"
            width="844"
            height="360"
            sar="86400:86299"
            scanType="progressive">
          </Representation>
          <Representation
            id="video=1493000"
            bandwidth="1493000"
            width="1126"
            height="480"
            sar="230400:230267"
            scanType="progressive">
          </Representation>
          <Representation
            id="video=4482000"
            bandwidth="4482000"
            width="1688"
            height="720"
            sar="86400:86299"
            scanType="progressive">
          </Representation>
        </AdaptationSet>
      </Period>
    </MPD>

    """#

    /// On-demand single files (SegmentBase with `indexRangeExact`), the 360p representation naming a
    /// Dolby Vision supplemental codec (`scte214:supplementalCodecs`); two videos, one audio. From
    /// yt-dlp, `test/testdata/mpd/supplemental_codecs.mpd`.
    static let ytdlpSupplementalCodecs = #"""
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <MPD mediaPresentationDuration="PT54.915S" minBufferTime="PT1.500S" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" type="static" xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:scte214="urn:scte:dash:scte214-extensions">
        <Period duration="PT54.915S">
            <AdaptationSet segmentAlignment="true" subsegmentAlignment="true" subsegmentStartsWithSAP="1">
                <Representation bandwidth="804261" codecs="avc1.4d401e" frameRate="30" height="360" id="VIDEO-1" mimeType="video/mp4" scte214:supplementalCodecs="dav1.10.02" startWithSAP="1" width="360">
                    <BaseURL>DASH_360</BaseURL>
                    <SegmentBase indexRange="915-1114" indexRangeExact="true">
                        <Initialization range="0-914"/>
                    </SegmentBase>
                </Representation>
                <Representation bandwidth="608000" codecs="avc1.4d401e" frameRate="30" height="240" id="VIDEO-2" mimeType="video/mp4" startWithSAP="1" width="240">
                    <BaseURL>DASH_240</BaseURL>
                    <SegmentBase indexRange="913-1112" indexRangeExact="true">
                        <Initialization range="0-912"/>
                    </SegmentBase>
                </Representation>
            </AdaptationSet>
            <AdaptationSet>
                <Representation audioSamplingRate="48000" bandwidth="129870" codecs="mp4a.40.2" id="AUDIO-1" mimeType="audio/mp4" startWithSAP="1">
                    <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/>
                    <BaseURL>audio</BaseURL>
                    <SegmentBase indexRange="832-1007" indexRangeExact="true">
                        <Initialization range="0-831"/>
                    </SegmentBase>
                </Representation>
            </AdaptationSet>
        </Period>
    </MPD>

    """#

    /// A SegmentList whose SegmentURLs share files and carry `mediaRange`s, the last without one; a
    /// single muxed audio and video representation. From yt-dlp,
    /// `test/testdata/mpd/urls_with_ranges.mpd`.
    static let ytdlpURLsWithRanges = #"""
    <?xml version="1.0" ?>
    <MPD maxSegmentDuration="PT0H0M10.000S" mediaPresentationDuration="PT0H4M1.728S" minBufferTime="PT1.500S" profiles="urn:mpeg:dash:profile:isoff-main:2011" type="static" xmlns="urn:mpeg:dash:schema:mpd:2011">
      <Period duration="PT0H4M1.728S">
        <AdaptationSet bitstreamSwitching="true" lang="und" maxHeight="1080" maxWidth="1920" par="16:9" segmentAlignment="true">
          <ContentComponent contentType="video" id="1"/>
          <Representation audioSamplingRate="44100" bandwidth="200000" codecs="avc3.42c01e,mp4a.40.2" frameRate="25" height="144" id="h264_aac_144p_m4s" mimeType="video/mp4" sar="1:1" startWithSAP="1" width="256">
            <SegmentList duration="10000" timescale="1000">
              <Initialization sourceURL="../vd_5999c902ea707c67d8e267a9_1503250723/h264_aac_144p_m4s/0/432f65a0.m4s" range="0-999"/>
              <SegmentURL media="../vd_5999c902ea707c67d8e267a9_1503250723/h264_aac_144p_m4s/0/432f65a0.m4s" mediaRange="1000-99999"/>
              <SegmentURL media="../vd_5999c902ea707c67d8e267a9_1503250723/h264_aac_144p_m4s/0/432f65a0.m4s" mediaRange="100000-199999"/>
              <SegmentURL media="../vd_5999c902ea707c67d8e267a9_1503250723/h264_aac_144p_m4s/0/432f65a0.m4s" mediaRange="200001-299999"/>
              <SegmentURL media="../vd_5999c902ea707c67d8e267a9_1503250723/h264_aac_144p_m4s/1/432f65a0.m4s" mediaRange="300000-399999"/>
              <SegmentURL media="../vd_5999c902ea707c67d8e267a9_1503250723/h264_aac_144p_m4s/2/432f65a0.m4s"/>
            </SegmentList>
          </Representation>
        </AdaptationSet>
      </Period>
    </MPD>

    """#

    /// Axinom's stream again with a W3C common PSSH (`cenc:pssh`) ContentProtection, one
    /// representation, tab and space indentation mixed. From yt-dlp,
    /// `test/testdata/mpd/w3c_pssh.mpd`.
    static let ytdlpW3CPSSH = #"""
    <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" minBufferTime="PT1.500S" type="static" mediaPresentationDuration="PT0H12M14.000S" maxSegmentDuration="PT0H0M4.000S" profiles="urn:mpeg:dash:profile:isoff-live:2011,http://dashif.org/guidelines/dash264" xmlns:cenc="urn:mpeg:cenc:2013" xmlns:clearkey="http://dashif.org/guidelines/clearKey">
    	<Period duration="PT0H12M14.000S">
    		<AdaptationSet segmentAlignment="true" group="1" maxWidth="1920" maxHeight="1080" maxFrameRate="24" par="16:9" lang="und">
    			<ContentProtection schemeIdUri="urn:mpeg:dash:mp4protection:2011" value="cenc" cenc:default_KID="9eb4050d-e44b-4802-932e-27d75083e266" />
                <ContentProtection schemeIdUri="urn:uuid:1077efec-c0b2-4d02-ace3-3c1e52e2fb4b">
                  <cenc:pssh>AAAANHBzc2gBAAAAEHfv7MCyTQKs4zweUuL7SwAAAAFDIVZ4EjQSNBI0EjQSNBI0AAAAAA==</cenc:pssh>
                </ContentProtection>
    			<Role schemeIdUri="urn:mpeg:dash:role:2011" value="main" />
    			<SegmentTemplate timescale="24" media="$RepresentationID$/$Number%04d$.m4s" startNumber="1" duration="96" initialization="$RepresentationID$/init.mp4" />
    			<Representation id="1" mimeType="video/mp4" codecs="avc1.64001f" width="512" height="288" frameRate="24" sar="1:1" startWithSAP="1" bandwidth="389802"></Representation>
    		</AdaptationSet>
    	</Period>
    </MPD>

    """#

    /// `$Number$` templates with `startNumber="0"`, `presentationTimeOffset` and a fractional
    /// `duration="2000000.0"`; no newline at the end. From youtube-dl,
    /// `test/testdata/mpd/float_duration.mpd`.
    static let youtubedlFloatDuration = #"""
    <?xml version="1.0" encoding="UTF-8"?>
    <MPD xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" minBufferTime="PT2S" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" mediaPresentationDuration="PT6014S">
    	<Period bitstreamSwitching="true">
    		<AdaptationSet mimeType="audio/mp4" codecs="mp4a.40.2" startWithSAP="1" segmentAlignment="true">
    			<SegmentTemplate timescale="1000000" presentationTimeOffset="0" initialization="ai_$RepresentationID$.mp4d" media="a_$RepresentationID$_$Number$.mp4d" duration="2000000.0" startNumber="0"></SegmentTemplate>
    			<Representation id="318597" bandwidth="61587"></Representation>
    		</AdaptationSet>
    		<AdaptationSet mimeType="video/mp4" startWithSAP="1" segmentAlignment="true">
    			<SegmentTemplate timescale="1000000" presentationTimeOffset="0" initialization="vi_$RepresentationID$.mp4d" media="v_$RepresentationID$_$Number$.mp4d" duration="2000000.0" startNumber="0"></SegmentTemplate>
    			<Representation id="318597" codecs="avc1.42001f" width="340" height="192" bandwidth="318597"></Representation>
    			<Representation id="638590" codecs="avc1.42001f" width="512" height="288" bandwidth="638590"></Representation>
    			<Representation id="1022565" codecs="avc1.4d001f" width="688" height="384" bandwidth="1022565"></Representation>
    			<Representation id="2046506" codecs="avc1.4d001f" width="1024" height="576" bandwidth="2046506"></Representation>
    			<Representation id="3998017" codecs="avc1.640029" width="1280" height="720" bandwidth="3998017"></Representation>
    			<Representation id="5997485" codecs="avc1.640032" width="1920" height="1080" bandwidth="5997485"></Representation>
    		</AdaptationSet>
    	</Period>
    </MPD>
    """#

    /// Bento4 `mp4-dash.py` output: SegmentLists whose SegmentURLs all name one fragmented file with
    /// byte `mediaRange`s, the Initialization with `sourceURL` and `range`. From youtube-dl,
    /// `test/testdata/mpd/url_and_range.mpd`.
    static let youtubedlURLAndRange = #"""
    <?xml version="1.0" ?>
    <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011" minBufferTime="PT10.01S" mediaPresentationDuration="PT30.097S" type="static">
      <!-- Created with Bento4 mp4-dash.py, VERSION=2.0.0-639 -->
      <Period>
        <!-- Video -->
        <AdaptationSet mimeType="video/mp4" segmentAlignment="true" startWithSAP="1" maxWidth="768" maxHeight="432">
          <Representation id="video-avc1" codecs="avc1.4D401E" width="768" height="432" scanType="progressive" frameRate="30000/1001" bandwidth="699597">
            <SegmentList timescale="1000" duration="10010">
              <Initialization sourceURL="video-frag.mp4" range="36-746"/>
              <SegmentURL media="video-frag.mp4" mediaRange="747-876117"/>
              <SegmentURL media="video-frag.mp4" mediaRange="876118-1466913"/>
              <SegmentURL media="video-frag.mp4" mediaRange="1466914-1953954"/>
              <SegmentURL media="video-frag.mp4" mediaRange="1953955-1994652"/>
            </SegmentList>
          </Representation>
        </AdaptationSet>
        <!-- Audio -->
        <AdaptationSet mimeType="audio/mp4" startWithSAP="1" segmentAlignment="true">
          <Representation id="audio-und-mp4a.40.2" codecs="mp4a.40.2" bandwidth="98808" audioSamplingRate="48000">
            <AudioChannelConfiguration schemeIdUri="urn:mpeg:mpegB:cicp:ChannelConfiguration" value="2"/>
            <SegmentList timescale="1000" duration="10010">
              <Initialization sourceURL="audio-frag.mp4" range="32-623"/>
              <SegmentURL media="audio-frag.mp4" mediaRange="624-124199"/>
              <SegmentURL media="audio-frag.mp4" mediaRange="124200-250303"/>
              <SegmentURL media="audio-frag.mp4" mediaRange="250304-374365"/>
              <SegmentURL media="audio-frag.mp4" mediaRange="374366-374836"/>
            </SegmentList>
          </Representation>
        </AdaptationSet>
      </Period>
    </MPD>

    """#

    /// GPAC (MP4Box) output: a Representation-level `BaseURL` and SegmentURLs with only `mediaRange`
    /// and `indexRange`, no `media`; ends with a blank line. From youtube-dl,
    /// `test/testdata/mpd/range_only.mpd`.
    static let youtubedlRangeOnly = #"""
    <?xml version="1.0"?>
    <!-- MPD file Generated with GPAC version 1.0.1-revrelease at 2021-11-27T20:53:11.690Z -->
    <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" minBufferTime="PT1.500S" type="static" mediaPresentationDuration="PT0H0M30.196S" maxSegmentDuration="PT0H0M10.027S" profiles="urn:mpeg:dash:profile:full:2011">
     <ProgramInformation moreInformationURL="http://gpac.io">
      <Title>manifest.mpd generated by GPAC</Title>
     </ProgramInformation>

     <Period duration="PT0H0M30.196S">
      <AdaptationSet segmentAlignment="true" maxWidth="768" maxHeight="432" maxFrameRate="30000/1001" par="16:9" lang="und" startWithSAP="1">
       <Representation id="1" mimeType="video/mp4" codecs="avc1.4D401E" width="768" height="432" frameRate="30000/1001" sar="1:1" bandwidth="526987">
        <BaseURL>video_dashinit.mp4</BaseURL>
        <SegmentList timescale="90000" duration="900000">
         <Initialization range="0-881"/>
         <SegmentURL mediaRange="882-876094" indexRange="882-925"/>
         <SegmentURL mediaRange="876095-1466732" indexRange="876095-876138"/>
         <SegmentURL mediaRange="1466733-1953615" indexRange="1466733-1466776"/>
         <SegmentURL mediaRange="1953616-1994211" indexRange="1953616-1953659"/>
        </SegmentList>
       </Representation>
      </AdaptationSet>
      <AdaptationSet segmentAlignment="true" lang="und" startWithSAP="1">
       <Representation id="2" mimeType="audio/mp4" codecs="mp4a.40.2" audioSamplingRate="48000" bandwidth="98096">
        <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/>
        <BaseURL>audio_dashinit.mp4</BaseURL>
        <SegmentList timescale="48000" duration="480000">
         <Initialization range="0-752"/>
         <SegmentURL mediaRange="753-124129" indexRange="753-796"/>
         <SegmentURL mediaRange="124130-250544" indexRange="124130-124173"/>
         <SegmentURL mediaRange="250545-374929" indexRange="250545-250588"/>
        </SegmentList>
       </Representation>
      </AdaptationSet>
     </Period>
    </MPD>


    """#

    /// Shaka Player's WebM demo: an MPD-level protocol-relative `BaseURL`, five one-language Vorbis
    /// sets (en, de, es, fr, it), four VP8 videos in SegmentBase files, four WebVTT sets. From
    /// shaka-project/shaka-player, `assets/angel_one.mpd`.
    static let shakaAngelOne = #"""
    <?xml version="1.0"?>
    <MPD xmlns="urn:mpeg:DASH:schema:MPD:2011" type="static" mediaPresentationDuration="PT59.994S" minBufferTime="PT1S" profiles="urn:webm:dash:profile:webm-on-demand:2012">
      <BaseURL>//shaka-player-demo.appspot.com/assets/angel_one/</BaseURL>
      <Period id="0" start="PT0S" duration="PT59.994S">
        <AdaptationSet id="6" mimeType="audio/webm" codecs="vorbis" lang="en" audioSamplingRate="48000" subsegmentStartsWithSAP="1">
          <Representation id="6" bandwidth="112375">
            <BaseURL>a-en.webm</BaseURL>
            <SegmentBase indexRange="815951-816145">
              <Initialization range="0-4521"/>
            </SegmentBase>
          </Representation>
        </AdaptationSet>
        <AdaptationSet id="7" mimeType="audio/webm" codecs="vorbis" lang="de" audioSamplingRate="48000" subsegmentStartsWithSAP="1">
          <Representation id="7" bandwidth="91060">
            <BaseURL>a-de.webm</BaseURL>
            <SegmentBase indexRange="682068-682263">
              <Initialization range="0-4521"/>
            </SegmentBase>
          </Representation>
        </AdaptationSet>
        <AdaptationSet id="8" mimeType="audio/webm" codecs="vorbis" lang="es" audioSamplingRate="48000" subsegmentStartsWithSAP="1">
          <Representation id="8" bandwidth="96408">
            <BaseURL>a-es.webm</BaseURL>
            <SegmentBase indexRange="728008-728202">
              <Initialization range="0-4521"/>
            </SegmentBase>
          </Representation>
        </AdaptationSet>
        <AdaptationSet id="9" mimeType="audio/webm" codecs="vorbis" lang="fr" audioSamplingRate="48000" subsegmentStartsWithSAP="1">
          <Representation id="9" bandwidth="94640">
            <BaseURL>a-fr.webm</BaseURL>
            <SegmentBase indexRange="721029-721223">
              <Initialization range="0-4521"/>
            </SegmentBase>
          </Representation>
        </AdaptationSet>
        <AdaptationSet id="10" mimeType="audio/webm" codecs="vorbis" lang="it" audioSamplingRate="48000" subsegmentStartsWithSAP="1">
          <Representation id="10" bandwidth="94290">
            <BaseURL>a-it.webm</BaseURL>
            <SegmentBase indexRange="723532-723726">
              <Initialization range="0-4521"/>
            </SegmentBase>
          </Representation>
        </AdaptationSet>
        <AdaptationSet id="15" mimeType="video/webm" codecs="vp8" subsegmentAlignment="true" subsegmentStartsWithSAP="1" bitstreamSwitching="true">
          <Representation id="15" bandwidth="1018197" width="768" height="576">
            <BaseURL>v-768x576-1M.webm</BaseURL>
            <SegmentBase indexRange="7575534-7575696">
              <Initialization range="0-249"/>
            </SegmentBase>
          </Representation>
          <Representation id="16" bandwidth="514685" width="768" height="576">
            <BaseURL>v-768x576-500k.webm</BaseURL>
            <SegmentBase indexRange="3796169-3796331">
              <Initialization range="0-249"/>
            </SegmentBase>
          </Representation>
          <Representation id="17" bandwidth="265431" width="576" height="432">
            <BaseURL>v-576x432-250k.webm</BaseURL>
            <SegmentBase indexRange="1909141-1909303">
              <Initialization range="0-249"/>
            </SegmentBase>
          </Representation>
          <Representation id="18" bandwidth="137319" width="432" height="324">
            <BaseURL>v-432x324-125k.webm</BaseURL>
            <SegmentBase indexRange="980929-981091">
              <Initialization range="0-249"/>
            </SegmentBase>
          </Representation>
        </AdaptationSet>
        <AdaptationSet id="19" mimeType="text/vtt" lang="en">
          <Representation id="19">
            <BaseURL>subs/s-en.vtt</BaseURL>
          </Representation>
        </AdaptationSet>
        <AdaptationSet id="20" mimeType="text/vtt" lang="fr">
          <Representation id="20">
            <BaseURL>subs/s-fr.vtt</BaseURL>
          </Representation>
        </AdaptationSet>
        <AdaptationSet id="21" mimeType="text/vtt" lang="pt-BR">
          <Representation id="21">
            <BaseURL>subs/s-pt-BR.vtt</BaseURL>
          </Representation>
        </AdaptationSet>
        <AdaptationSet id="22" mimeType="text/vtt" lang="el">
          <Representation id="22">
            <BaseURL>subs/s-el.vtt</BaseURL>
          </Representation>
        </AdaptationSet>
      </Period>
    </MPD>

    """#

    /// FFmpeg live output kept for Shaka Player issue 7401: dynamic, three Periods, `$Number%05d$`
    /// templates over SegmentTimelines at Representation level. From shaka-project/shaka-player,
    /// `test/test/assets/7401/dash_0.mpd`.
    static let shakaLiveMultiPeriod = #"""
    <?xml version="1.0" encoding="utf-8"?>
    <MPD xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    	xmlns="urn:mpeg:dash:schema:mpd:2011"
    	xmlns:xlink="http://www.w3.org/1999/xlink"
    	xsi:schemaLocation="urn:mpeg:DASH:schema:MPD:2011 http://standards.iso.org/ittf/PubliclyAvailableStandards/MPEG-DASH_schema_files/DASH-MPD.xsd"
    	profiles="urn:mpeg:dash:profile:isoff-live:2011"
    	type="dynamic"
    	minimumUpdatePeriod="PT2S"
    	suggestedPresentationDelay="PT2S"
    	availabilityStartTime="2021-10-28T07:35:57.755Z"
    	publishTime="2021-10-28T07:36:29.744Z"
    	timeShiftBufferDepth="PT42.0S"
    	maxSegmentDuration="PT2.0S"
    	minBufferTime="PT4.0S">
    	<ProgramInformation>
    	</ProgramInformation>
    	<ServiceDescription id="0">
    	</ServiceDescription>
    	<Period id="0" start="PT1000.0S" duration="PT14.0S">
    		<AdaptationSet id="0" contentType="video" startWithSAP="1" segmentAlignment="true" bitstreamSwitching="true" frameRate="30/1" maxWidth="1280" maxHeight="720" par="16:9">
    			<Representation id="0" mimeType="video/mp4" codecs="avc1.64001f" bandwidth="122012" width="1280" height="720" sar="1:1">
    				<SegmentTemplate timescale="15360" initialization="init-stream$RepresentationID$.m4s" media="chunk-stream$RepresentationID$-$Number%05d$.m4s" startNumber="1">
    					<SegmentTimeline>
    						<S t="0" d="30720" r="6" />
    					</SegmentTimeline>
    				</SegmentTemplate>
    			</Representation>
    		</AdaptationSet>
    	</Period>
    	<Period id="1" start="PT1014.0S" duration="PT14.0S">
    		<AdaptationSet id="0" contentType="video" startWithSAP="1" segmentAlignment="true" bitstreamSwitching="true" frameRate="30/1" maxWidth="1280" maxHeight="720" par="16:9">
    			<Representation id="0" mimeType="video/mp4" codecs="avc1.64001f" bandwidth="122012" width="1280" height="720" sar="1:1">
    				<SegmentTemplate timescale="15360" initialization="init-stream$RepresentationID$.m4s" media="chunk-stream$RepresentationID$-$Number%05d$.m4s" startNumber="1">
    					<SegmentTimeline>
    						<S t="0" d="30720" r="6" />
    					</SegmentTimeline>
    				</SegmentTemplate>
    			</Representation>
    		</AdaptationSet>
    	</Period>
    	<Period id="2" start="PT1028.0S" >
    		<AdaptationSet id="0" contentType="video" startWithSAP="1" segmentAlignment="true" bitstreamSwitching="true" frameRate="30/1" maxWidth="1280" maxHeight="720" par="16:9">
    			<Representation id="0" mimeType="video/mp4" codecs="avc1.64001f" bandwidth="122012" width="1280" height="720" sar="1:1">
    				<SegmentTemplate timescale="15360" initialization="init-stream$RepresentationID$.m4s" media="chunk-stream$RepresentationID$-$Number%05d$.m4s" startNumber="1">
    					<SegmentTimeline>
    						<S t="0" d="30720" r="1" /> 
    					</SegmentTimeline>
    				</SegmentTemplate>
    			</Representation>
    		</AdaptationSet>
    	</Period>
    </MPD>

    """#

    /// DASH-IF's Big Buck Bunny as dash.js tests keep it: MPD-level `BaseURL` `./`,
    /// AdaptationSet-level `$Number$` templates, ten AVC videos up to 2160p, one audio with two
    /// Labels. From Dash-Industry-Forum/dash.js, `test/unit/data/dash/manifest.xml`.
    static let dashjsBigBuckBunny = #"""
    <MPD mediaPresentationDuration="PT634.566S" minBufferTime="PT2.00S" profiles="urn:hbbtv:dash:profile:isoff-live:2012,urn:mpeg:dash:profile:isoff-live:2011" type="static" xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="urn:mpeg:DASH:schema:MPD:2011 DASH-MPD.xsd">
        <BaseURL>./</BaseURL>
        <Period>
            <AdaptationSet mimeType="video/mp4" contentType="video" subsegmentAlignment="true" subsegmentStartsWithSAP="1" par="16:9">
                <SegmentTemplate duration="120" timescale="30" media="$RepresentationID$/$RepresentationID$_$Number$.m4v" startNumber="1" initialization="$RepresentationID$/$RepresentationID$_0.m4v"/>
                <Representation id="bbb_30fps_1024x576_2500k" codecs="avc1.64001f" bandwidth="3134488" width="1024" height="576" frameRate="30" sar="1:1" scanType="progressive"/>
                <Representation id="bbb_30fps_1280x720_4000k" codecs="avc1.64001f" bandwidth="4952892" width="1280" height="720" frameRate="30" sar="1:1" scanType="progressive"/>
                <Representation id="bbb_30fps_1920x1080_8000k" codecs="avc1.640028" bandwidth="9914554" width="1920" height="1080" frameRate="30" sar="1:1" scanType="progressive"/>
                <Representation id="bbb_30fps_320x180_200k" codecs="avc1.64000d" bandwidth="254320" width="320" height="180" frameRate="30" sar="1:1" scanType="progressive"/>
                <Representation id="bbb_30fps_320x180_400k" codecs="avc1.64000d" bandwidth="507246" width="320" height="180" frameRate="30" sar="1:1" scanType="progressive"/>
                <Representation id="bbb_30fps_480x270_600k" codecs="avc1.640015" bandwidth="759798" width="480" height="270" frameRate="30" sar="1:1" scanType="progressive"/>
                <Representation id="bbb_30fps_640x360_1000k" codecs="avc1.64001e" bandwidth="1254758" width="640" height="360" frameRate="30" sar="1:1" scanType="progressive"/>
                <Representation id="bbb_30fps_640x360_800k" codecs="avc1.64001e" bandwidth="1013310" width="640" height="360" frameRate="30" sar="1:1" scanType="progressive"/>
                <Representation id="bbb_30fps_768x432_1500k" codecs="avc1.64001e" bandwidth="1883700" width="768" height="432" frameRate="30" sar="1:1" scanType="progressive"/>
                <Representation id="bbb_30fps_3840x2160_12000k" codecs="avc1.640033" bandwidth="14931538" width="3840" height="2160" frameRate="30" sar="1:1" scanType="progressive"/>
            </AdaptationSet>
            <AdaptationSet mimeType="audio/mp4" contentType="audio" subsegmentAlignment="true" subsegmentStartsWithSAP="1" lang="spa">
                <Label lang="en">English Label</Label>
                <Label lang="fre">French Label</Label>
                <Accessibility schemeIdUri="urn:tva:metadata:cs:AudioPurposeCS:2007" value="6"/>
                <Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"/>
                <SegmentTemplate duration="192512" timescale="48000" media="$RepresentationID$/$RepresentationID$_$Number$.m4a" startNumber="1" initialization="$RepresentationID$/$RepresentationID$_0.m4a"/>
                <Representation id="bbb_a64k" codecs="mp4a.40.5" bandwidth="67071" audioSamplingRate="48000">
                    <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/>
                </Representation>
            </AdaptationSet>
        </Period>
    </MPD>

    """#

    /// AWS Elemental MediaPackage around a SCTE-35 break: two Periods, `$Number$` templates over
    /// SegmentTimelines, `startNumber` 6 and 22, `presentationTimeOffset`; a bare `<MPD>` and an
    /// undeclared `scte35:` prefix. From emarsden/dash-mpd-rs, `tests/fixtures/mediapackage.xml`.
    static let awsMediaPackageMultiPeriod = #"""
    <?xml version="1.0" encoding="utf-8"?>
    <MPD>
      <Period start="PT0.000S" id="0" duration="PT44.075S">
        <AdaptationSet mimeType="video/mp4" segmentAlignment="true" subsegmentAlignment="true" startWithSAP="1" subsegmentStartsWithSAP="1" bitstreamSwitching="true">
          <Representation id="1" width="960" height="540" frameRate="30000/1001" bandwidth="1000000" codecs="avc1.4D401F">
            <SegmentTemplate timescale="30000" media="index_video_1_0_$Number$.mp4?m=1528413503" initialization="index_video_1_0_init.mp4?m=1528413503" startNumber="6" presentationTimeOffset="0">
              <SegmentTimeline>
                <S t="361301" d="60060" r="15"/>
              </SegmentTimeline>
            </SegmentTemplate>
          </Representation>
        </AdaptationSet>
        <AdaptationSet mimeType="audio/mp4" segmentAlignment="0" lang="eng">
          <Representation id="2" bandwidth="96964" audioSamplingRate="48000" codecs="mp4a.40.2">
            <SegmentTemplate timescale="48000" media="index_audio_2_0_$Number$.mp4?m=1528413503" initialization="index_audio_2_0_init.mp4?m=1528413503" startNumber="6" presentationTimeOffset="0">
              <SegmentTimeline>
                <S t="578305" d="96256" r="3"/>
                <S t="963329" d="95232"/>
                <S t="1058561" d="96256" r="5"/>
                <S t="1636097" d="95232"/>
                <S t="1731329" d="96256" r="3"/>
              </SegmentTimeline>
            </SegmentTemplate>
          </Representation>
        </AdaptationSet>
      </Period>
      <Period start="PT44.075S" id="21">
        <EventStream timescale="90000" schemeIdUri="urn:scte:scte35:2013:xml">
          <Event>
            <scte35:SpliceInfoSection protocolVersion="0" ptsAdjustment="183003" tier="4095">
              <scte35:SpliceInsert spliceEventId="1000" spliceEventCancelIndicator="false" outOfNetworkIndicator="true" spliceImmediateFlag="false" uniqueProgramId="7" availNum="1" availsExpected="4">
                <scte35:Program><scte35:SpliceTime ptsTime="3783780"/></scte35:Program>
              </scte35:SpliceInsert>
            </scte35:SpliceInfoSection>
          </Event>
        </EventStream>
        <AdaptationSet mimeType="video/mp4" segmentAlignment="true" subsegmentAlignment="true" startWithSAP="1" subsegmentStartsWithSAP="1" bitstreamSwitching="true">
          <Representation id="1" width="960" height="540" frameRate="30000/1001" bandwidth="1000000" codecs="avc1.4D401F">
            <SegmentTemplate timescale="30000" media="index_video_1_0_$Number$.mp4?m=1528413503" initialization="index_video_1_0_init.mp4?m=1528413503" startNumber="22" presentationTimeOffset="1322261">
              <SegmentTimeline>
                <S t="1322261" d="60060" r="13"/>
              </SegmentTimeline>
            </SegmentTemplate>
          </Representation>
        </AdaptationSet>
        <AdaptationSet mimeType="audio/mp4" segmentAlignment="0" lang="eng">
          <Representation id="2" bandwidth="96964" audioSamplingRate="48000" codecs="mp4a.40.2">
            <SegmentTemplate timescale="48000" media="index_audio_2_0_$Number$.mp4?m=1528413503" initialization="index_audio_2_0_init.mp4?m=1528413503" startNumber="22" presentationTimeOffset="2115617">
              <SegmentTimeline>
                <S t="2116353" d="96256"/>
                <S t="2212609" d="95232"/>
                <S t="2307841" d="96256" r="5"/>
                <S t="2885377" d="95232"/>
                <S t="2980609" d="96256" r="4"/>
              </SegmentTimeline>
            </SegmentTemplate>
          </Representation>
        </AdaptationSet>
      </Period>
    </MPD>

    """#

    /// Orange France live TV: dynamic, Period-level `BaseURL`, `$Time$` SegmentTimelines with large
    /// start times, CENC with PlayReady, Widevine and Viaccess-Orca, three French audio sets, two
    /// TTML sets, five videos. From emarsden/dash-mpd-rs, `tests/fixtures/orange.xml`.
    static let orangeLiveDRM = #"""
    <?xml version="1.0" encoding="utf-8"?>
    <MPD xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:cenc="urn:mpeg:cenc:2013" xsi:schemaLocation="urn:mpeg:dash:schema:mpd:2011 http://standards.iso.org/ittf/PubliclyAvailableStandards/MPEG-DASH_schema_files/DASH-MPD.xsd" type="dynamic" availabilityStartTime="1970-01-01T00:00:00Z" publishTime="2023-05-24T12:48:37.731482Z" minimumUpdatePeriod="PT2S" timeShiftBufferDepth="PT30S" maxSegmentDuration="PT3S" minBufferTime="PT2S" profiles="urn:mpeg:dash:profile:isoff-live:2011,urn:com:dashif:dash264">
      <Period id="1" start="PT0S">
        <BaseURL>dash/</BaseURL>
        <EventStream schemeIdUri="urn:scte:scte35:2014:xml+bin" value="185" timescale="10000000">
          <!-- 2023-05-24T12:47:47.725143Z -->
          <Event presentationTime="16849324677251439" duration="300000000" id="3106345436">
            <Signal xmlns="http://www.scte.org/schemas/35/2016">
              <Binary>/DBeAAAAAAAAAP/wBQb/FFKUFwBIAhRDVUVJAAX6C3//AAApMuAAADAKDwIfQ1VFSQAF+v9/vwwQQURGUgEzogE0sXwF+gWXQAIAAAIPQ1VFSQAF+gp/vwAAMQkP2DtRqg==</Binary>
            </Signal>
          </Event>
          <!-- 2023-05-24T12:48:18.085143Z -->
          <Event presentationTime="16849324980851439" duration="230000000" id="2860777356">
            <Signal xmlns="http://www.scte.org/schemas/35/2016">
              <Binary>/DBeAAAAAAAAAP/wBQb/FHxFhwBIAhRDVUVJAAX6DH//AAAflfAAADALDwIfQ1VFSQAF+v9/vwwQQURGUgEzogE0sXwF+gWXQAIAAAIPQ1VFSQAF+gt/vwAAMQoPPcUziA==</Binary>
            </Signal>
          </Event>
        </EventStream>
        <AdaptationSet id="1" group="1" contentType="audio" lang="fr" segmentAlignment="true" audioSamplingRate="48000" mimeType="audio/mp4" codecs="mp4a.40.5" startWithSAP="1">
          <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/>
          <!-- Common Encryption -->
          <ContentProtection schemeIdUri="urn:mpeg:dash:mp4protection:2011" value="cenc" cenc:default_KID="2A9B80A4-1653-1E1C-861E-EAFE6B2E2B3B">
          </ContentProtection>
          <!-- PlayReady -->
          <ContentProtection schemeIdUri="urn:uuid:9A04F079-9840-4286-AB92-E65BE0885F95" value="MSPR 2.0">
          </ContentProtection>
          <!-- ViaccessOrca -->
          <ContentProtection schemeIdUri="urn:uuid:B4413586-C58C-FFB0-94A5-D4896C1AF6C3">
          </ContentProtection>
          <!-- Widevine -->
          <ContentProtection schemeIdUri="urn:uuid:EDEF8BA9-79D6-4ACE-A3C8-27DCD51D21ED">
          </ContentProtection>
          <InbandEventStream schemeIdUri="urn:scte:scte35:2014:xml+bin" value="185">
          </InbandEventStream>
          <Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"/>
          <SegmentTemplate timescale="48000" initialization="livetv_tfx_ctv-$RepresentationID$.dash?horsrb=0&amp;bpk-service=Live&amp;device=pc" media="livetv_tfx_ctv-$RepresentationID$-$Time$.dash?horsrb=0&amp;bpk-service=Live&amp;device=pc">
            <!-- 2023-05-24T12:48:06.187750Z / 1684932486 - 2023-05-24T12:48:34.987750Z -->
            <SegmentTimeline>
              <S t="80876759337012" d="92160" r="4"/>
              <S d="110592"/>
              <S d="73728"/>
              <S d="92160" r="7"/>
            </SegmentTimeline>
          </SegmentTemplate>
          <Representation id="audio_81330_fra=81200" bandwidth="81200">
          </Representation>
        </AdaptationSet>
        <AdaptationSet id="2" group="1" contentType="audio" lang="qaa" segmentAlignment="true" audioSamplingRate="48000" mimeType="audio/mp4" codecs="mp4a.40.5" startWithSAP="1">
          <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/>
          <!-- Common Encryption -->
          <ContentProtection schemeIdUri="urn:mpeg:dash:mp4protection:2011" value="cenc" cenc:default_KID="2A9B80A4-1653-1E1C-861E-EAFE6B2E2B3B">
          </ContentProtection>
          <!-- PlayReady -->
          <ContentProtection schemeIdUri="urn:uuid:9A04F079-9840-4286-AB92-E65BE0885F95" value="MSPR 2.0">
          </ContentProtection>
          <!-- ViaccessOrca -->
          <ContentProtection schemeIdUri="urn:uuid:B4413586-C58C-FFB0-94A5-D4896C1AF6C3">
          </ContentProtection>
          <!-- Widevine -->
          <ContentProtection schemeIdUri="urn:uuid:EDEF8BA9-79D6-4ACE-A3C8-27DCD51D21ED">
          </ContentProtection>
          <InbandEventStream schemeIdUri="urn:scte:scte35:2014:xml+bin" value="185">
          </InbandEventStream>
          <Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"/>
          <SegmentTemplate timescale="48000" initialization="livetv_tfx_ctv-$RepresentationID$.dash?horsrb=0&amp;bpk-service=Live&amp;device=pc" media="livetv_tfx_ctv-$RepresentationID$-$Time$.dash?horsrb=0&amp;bpk-service=Live&amp;device=pc">
            <!-- 2023-05-24T12:48:06.187750Z / 1684932486 - 2023-05-24T12:48:34.987750Z -->
            <SegmentTimeline>
              <S t="80876759337012" d="92160" r="4"/>
              <S d="110592"/>
              <S d="73728"/>
              <S d="92160" r="7"/>
            </SegmentTimeline>
          </SegmentTemplate>
          <Representation id="audio_81350_qaa=81200" bandwidth="81200">
          </Representation>
        </AdaptationSet>
        <AdaptationSet id="3" group="1" contentType="audio" lang="fr" segmentAlignment="true" audioSamplingRate="48000" mimeType="audio/mp4" codecs="mp4a.40.5" startWithSAP="1">
          <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/>
          <!-- Common Encryption -->
          <ContentProtection schemeIdUri="urn:mpeg:dash:mp4protection:2011" value="cenc" cenc:default_KID="2A9B80A4-1653-1E1C-861E-EAFE6B2E2B3B">
          </ContentProtection>
          <!-- PlayReady -->
          <ContentProtection schemeIdUri="urn:uuid:9A04F079-9840-4286-AB92-E65BE0885F95" value="MSPR 2.0">
          </ContentProtection>
          <!-- ViaccessOrca -->
          <ContentProtection schemeIdUri="urn:uuid:B4413586-C58C-FFB0-94A5-D4896C1AF6C3">
          </ContentProtection>
          <!-- Widevine -->
          <ContentProtection schemeIdUri="urn:uuid:EDEF8BA9-79D6-4ACE-A3C8-27DCD51D21ED">
          </ContentProtection>
          <InbandEventStream schemeIdUri="urn:scte:scte35:2014:xml+bin" value="185">
          </InbandEventStream>
          <Accessibility schemeIdUri="urn:tva:metadata:cs:AudioPurposeCS:2007" value="1"/>
          <Role schemeIdUri="urn:mpeg:dash:role:2011" value="alternate"/>
          <SegmentTemplate timescale="48000" initialization="livetv_tfx_ctv-$RepresentationID$.dash?horsrb=0&amp;bpk-service=Live&amp;device=pc" media="livetv_tfx_ctv-$RepresentationID$-$Time$.dash?horsrb=0&amp;bpk-service=Live&amp;device=pc">
            <!-- 2023-05-24T12:48:06.187750Z / 1684932486 - 2023-05-24T12:48:34.987750Z -->
            <SegmentTimeline>
              <S t="80876759337012" d="92160" r="4"/>
              <S d="110592"/>
              <S d="73728"/>
              <S d="92160" r="7"/>
            </SegmentTimeline>
          </SegmentTemplate>
          <Representation id="audio_81370_qad=81200" bandwidth="81200">
          </Representation>
        </AdaptationSet>
        <AdaptationSet id="4" group="3" contentType="text" lang="fr" mimeType="application/mp4" codecs="stpp.ttml" startWithSAP="1">
          <InbandEventStream schemeIdUri="urn:scte:scte35:2014:xml+bin" value="185">
          </InbandEventStream>
          <Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"/>
          <Accessibility schemeIdUri="urn:tva:metadata:cs:AudioPurposeCS:2007" value="2"/>
          <Role schemeIdUri="urn:mpeg:dash:role:2011" value="caption"/>
          <SegmentTemplate timescale="1000" initialization="livetv_tfx_ctv-$RepresentationID$.dash?horsrb=0&amp;bpk-service=Live&amp;device=pc" media="livetv_tfx_ctv-$RepresentationID$-$Time$.dash?horsrb=0&amp;bpk-service=Live&amp;device=pc">
            <!-- 2023-05-24T12:48:06.165000Z / 1684932486 - 2023-05-24T12:48:36.885000Z -->
            <SegmentTimeline>
              <S t="1684932486165" d="1920" r="4"/>
              <S d="2320"/>
              <S d="1520"/>
              <S d="1920" r="8"/>
            </SegmentTimeline>
          </SegmentTemplate>
          <Representation id="textstream_11798664_fra=8000" bandwidth="8000">
          </Representation>
        </AdaptationSet>
        <AdaptationSet id="5" group="3" contentType="text" lang="fr" mimeType="application/mp4" codecs="stpp.ttml" startWithSAP="1">
          <InbandEventStream schemeIdUri="urn:scte:scte35:2014:xml+bin" value="185">
          </InbandEventStream>
          <Role schemeIdUri="urn:mpeg:dash:role:2011" value="subtitle"/>
          <SegmentTemplate timescale="1000" initialization="livetv_tfx_ctv-$RepresentationID$.dash?horsrb=0&amp;bpk-service=Live&amp;device=pc" media="livetv_tfx_ctv-$RepresentationID$-$Time$.dash?horsrb=0&amp;bpk-service=Live&amp;device=pc">
            <!-- 2023-05-24T12:48:06.165000Z / 1684932486 - 2023-05-24T12:48:36.885000Z -->
            <SegmentTimeline>
              <S t="1684932486165" d="1920" r="4"/>
              <S d="2320"/>
              <S d="1520"/>
              <S d="1920" r="8"/>
            </SegmentTimeline>
          </SegmentTemplate>
          <Representation id="textstream_11798665_fra=8000" bandwidth="8000">
          </Representation>
        </AdaptationSet>
        <AdaptationSet id="6" group="2" contentType="video" par="16:9" minBandwidth="509200" maxBandwidth="3341600" maxWidth="1280" maxHeight="720" minFrameRate="25" maxFrameRate="50" segmentAlignment="true" mimeType="video/mp4" codecs="avc1.640029" startWithSAP="1">
          <!-- Common Encryption -->
          <ContentProtection schemeIdUri="urn:mpeg:dash:mp4protection:2011" value="cenc" cenc:default_KID="2A9B80A4-1653-1E1C-861E-EAFE6B2E2B3B">
          </ContentProtection>
          <!-- PlayReady -->
          <ContentProtection schemeIdUri="urn:uuid:9A04F079-9840-4286-AB92-E65BE0885F95" value="MSPR 2.0">
          </ContentProtection>
          <!-- ViaccessOrca -->
          <ContentProtection schemeIdUri="urn:uuid:B4413586-C58C-FFB0-94A5-D4896C1AF6C3">
          </ContentProtection>
          <!-- Widevine -->
          <ContentProtection schemeIdUri="urn:uuid:EDEF8BA9-79D6-4ACE-A3C8-27DCD51D21ED">
          </ContentProtection>
          <InbandEventStream schemeIdUri="urn:scte:scte35:2014:xml+bin" value="185">
          </InbandEventStream>
          <Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"/>
          <SegmentTemplate timescale="600" initialization="livetv_tfx_ctv-$RepresentationID$.dash?horsrb=0&amp;bpk-service=Live&amp;device=pc" media="livetv_tfx_ctv-$RepresentationID$-$Time$.dash?horsrb=0&amp;bpk-service=Live&amp;device=pc">
            <!-- 2023-05-24T12:48:06.165000Z / 1684932486 - 2023-05-24T12:48:36.885000Z -->
            <SegmentTimeline>
              <S t="1010959491699" d="1152" r="4"/>
              <S d="1392"/>
              <S d="912"/>
              <S d="1152" r="8"/>
            </SegmentTimeline>
          </SegmentTemplate>
          <Representation id="video=509200" bandwidth="509200" width="400" height="224" sar="224:225" frameRate="25" scanType="progressive">
          </Representation>
          <Representation id="video=779200" bandwidth="779200" width="480" height="270" sar="1:1" frameRate="25" scanType="progressive">
          </Representation>
          <Representation id="video=1385600" bandwidth="1385600" width="640" height="360" sar="1:1" frameRate="25" scanType="progressive">
          </Representation>
          <Representation id="video=2305200" bandwidth="2305200" width="1024" height="576" sar="1:1" frameRate="25" scanType="progressive">
          </Representation>
          <Representation id="video=3341600" bandwidth="3341600" width="1280" height="720" sar="1:1" frameRate="50" scanType="progressive">
          </Representation>
        </AdaptationSet>
      </Period>
    </MPD>

    """#

    /// AWS MediaTailor ad insertion: seven Periods of ads and content, `BaseURL`s at MPD and Period
    /// level, templates split over AdaptationSet and Representation, `$Number%09d$`, no
    /// `mediaPresentationDuration`. From emarsden/dash-mpd-rs, `tests/fixtures/aws.xml`.
    static let awsMediaTailorAdInsertion = #"""
    <?xml version="1.0" encoding="UTF-8"?>
    <MPD id="201" minBufferTime="PT30S" profiles="urn:mpeg:dash:profile:isoff-main:2011" type="static" xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:scte35="urn:scte:scte35:2013:xml" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="urn:mpeg:dash:schema:mpd:2011 http://standards.iso.org/ittf/PubliclyAvailableStandards/MPEG-DASH_schema_files/DASH-MPD.xsd"><BaseURL>https://10380e91fda5e303.mediapackage.us-west-2.amazonaws.com/out/v1/5f6a2197815e444a967f0c12f8325a11/</BaseURL>
            <Period duration="PT14.976S" id="8778696_PT0S_0" start="PT0S"><BaseURL>https://12345.mediatailor.us-west-2.amazonaws.com/v1/dashsegment/0d598fad40f42c4644d1c5b7674438772ee23b12/dash-vod-insertion/a5a7cf24-ee56-40e9-a0a2-82b483cf8650/8778696_PT0S/8778696_PT0S_0/</BaseURL>
              <AdaptationSet bitstreamSwitching="false" frameRate="30/1" mimeType="video/mp4" segmentAlignment="true" startWithSAP="1" subsegmentAlignment="true" subsegmentStartsWithSAP="1">
                <SegmentTemplate startNumber="1" timescale="90000"/>
                <Representation bandwidth="3296000" codecs="avc1.64001f" height="720" id="1" width="1280">
                  <SegmentTemplate initialization="asset_720_3_1init.mp4" media="asset_720_3_1_$Number%09d$.mp4" startNumber="1">
                    <SegmentTimeline>
                      <S d="180000" r="6" t="0"/>
                      <S d="87000" t="1260000"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
                <Representation bandwidth="2200000" codecs="avc1.64001f" height="540" id="2" width="960">
                  <SegmentTemplate initialization="asset_540_2_0init.mp4" media="asset_540_2_0_$Number%09d$.mp4" startNumber="1">
                    <SegmentTimeline>
                      <S d="180000" r="6" t="0"/>
                      <S d="87000" t="1260000"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
                <Representation bandwidth="800000" codecs="avc1.64001e" height="360" id="3" width="640">
                  <SegmentTemplate initialization="asset_360_0_2init.mp4" media="asset_360_0_2_$Number%09d$.mp4" startNumber="1">
                    <SegmentTimeline>
                      <S d="180000" r="6" t="0"/>
                      <S d="87000" t="1260000"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
              </AdaptationSet>
              <AdaptationSet lang="eng" mimeType="audio/mp4" segmentAlignment="0">
                <SegmentTemplate initialization="asset_audio_96_3init.mp4" media="asset_audio_96_3_$Number%09d$.mp4" startNumber="1" timescale="48000"/>
                <Label>eng</Label>
                <Representation audioSamplingRate="48000" bandwidth="96000" codecs="mp4a.40.2" id="4">
                  <SegmentTemplate initialization="asset_audio_96_3init.mp4" media="asset_audio_96_3_$Number%09d$.mp4" startNumber="1">
                    <SegmentTimeline>
                      <S d="96256" r="3" t="0"/>
                      <S d="95232" t="385024"/>
                      <S d="96256" r="1" t="480256"/>
                      <S d="46080" t="672768"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
              </AdaptationSet>
              <AdaptationSet lang="eng" mimeType="audio/mp4" segmentAlignment="0">
                <SegmentTemplate initialization="asset_audio_96_4init.mp4" media="asset_audio_96_4_$Number%09d$.mp4" startNumber="1" timescale="48000"/>
                <Label>eng</Label>
                <Representation audioSamplingRate="48000" bandwidth="96000" codecs="mp4a.40.2" id="5">
                  <SegmentTemplate initialization="asset_audio_96_4init.mp4" media="asset_audio_96_4_$Number%09d$.mp4" startNumber="1">
                    <SegmentTimeline>
                      <S d="96256" r="3" t="0"/>
                      <S d="95232" t="385024"/>
                      <S d="96256" r="1" t="480256"/>
                      <S d="46080" t="672768"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
              </AdaptationSet>
            </Period><Period duration="PT14.976S" id="8778696_PT0S_1" start="PT14.976S"><BaseURL>https://12345.mediatailor.us-west-2.amazonaws.com/v1/dashsegment/0d598fad40f42c4644d1c5b7674438772ee23b12/dash-vod-insertion/a5a7cf24-ee56-40e9-a0a2-82b483cf8650/8778696_PT0S/8778696_PT0S_1/</BaseURL>
              <AdaptationSet bitstreamSwitching="false" frameRate="30/1" mimeType="video/mp4" segmentAlignment="true" startWithSAP="1" subsegmentAlignment="true" subsegmentStartsWithSAP="1">
                <SegmentTemplate startNumber="1" timescale="90000"/>
                <Representation bandwidth="3296000" codecs="avc1.64001f" height="720" id="1" width="1280">
                  <SegmentTemplate initialization="asset_720_3_1init.mp4" media="asset_720_3_1_$Number%09d$.mp4" startNumber="1">
                    <SegmentTimeline>
                      <S d="180000" r="6" t="0"/>
                      <S d="87000" t="1260000"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
                <Representation bandwidth="2200000" codecs="avc1.64001f" height="540" id="2" width="960">
                  <SegmentTemplate initialization="asset_540_2_0init.mp4" media="asset_540_2_0_$Number%09d$.mp4" startNumber="1">
                    <SegmentTimeline>
                      <S d="180000" r="6" t="0"/>
                      <S d="87000" t="1260000"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
                <Representation bandwidth="800000" codecs="avc1.64001e" height="360" id="3" width="640">
                  <SegmentTemplate initialization="asset_360_0_2init.mp4" media="asset_360_0_2_$Number%09d$.mp4" startNumber="1">
                    <SegmentTimeline>
                      <S d="180000" r="6" t="0"/>
                      <S d="87000" t="1260000"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
              </AdaptationSet>
              <AdaptationSet lang="eng" mimeType="audio/mp4" segmentAlignment="0">
                <SegmentTemplate initialization="asset_audio_96_3init.mp4" media="asset_audio_96_3_$Number%09d$.mp4" startNumber="1" timescale="48000"/>
                <Label>eng</Label>
                <Representation audioSamplingRate="48000" bandwidth="96000" codecs="mp4a.40.2" id="4">
                  <SegmentTemplate initialization="asset_audio_96_3init.mp4" media="asset_audio_96_3_$Number%09d$.mp4" startNumber="1">
                    <SegmentTimeline>
                      <S d="96256" r="3" t="0"/>
                      <S d="95232" t="385024"/>
                      <S d="96256" r="1" t="480256"/>
                      <S d="46080" t="672768"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
              </AdaptationSet>
              <AdaptationSet lang="eng" mimeType="audio/mp4" segmentAlignment="0">
                <SegmentTemplate initialization="asset_audio_96_4init.mp4" media="asset_audio_96_4_$Number%09d$.mp4" startNumber="1" timescale="48000"/>
                <Label>eng</Label>
                <Representation audioSamplingRate="48000" bandwidth="96000" codecs="mp4a.40.2" id="5">
                  <SegmentTemplate initialization="asset_audio_96_4init.mp4" media="asset_audio_96_4_$Number%09d$.mp4" startNumber="1">
                    <SegmentTimeline>
                      <S d="96256" r="3" t="0"/>
                      <S d="95232" t="385024"/>
                      <S d="96256" r="1" t="480256"/>
                      <S d="46080" t="672768"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
              </AdaptationSet>
            </Period><Period duration="PT24.024S" id="8778696_PT29.952S" start="PT29.952S">
              <SupplementalProperty schemeIdUri="urn:scte:dash:utc-time" value="2018-07-27T09:35:44.011Z"/>
              <AdaptationSet bitstreamSwitching="true" mimeType="video/mp4" segmentAlignment="true" startWithSAP="1" subsegmentAlignment="true" subsegmentStartsWithSAP="1">
                <Representation bandwidth="2200000" codecs="avc1.640029" frameRate="30000/1001" height="540" id="1" width="960">
                  <SegmentTemplate initialization="index_video_7_0_init.mp4?m=1566416213" media="index_video_7_0_$Number$.mp4?m=1566416213" presentationTimeOffset="1317997547283" startNumber="8778700" timescale="30000">
                    <SegmentTimeline><S d="180180" r="3" t="1317997547283"/></SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
                <Representation bandwidth="3299968" codecs="avc1.640029" frameRate="30000/1001" height="720" id="2" width="1280">
                  <SegmentTemplate initialization="index_video_10_0_init.mp4?m=1566416213" media="index_video_10_0_$Number$.mp4?m=1566416213" presentationTimeOffset="1317997547283" startNumber="8778700" timescale="30000">
                    <SegmentTimeline><S d="180180" r="3" t="1317997547283"/></SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
                <Representation bandwidth="800000" codecs="avc1.4D401E" frameRate="30000/1001" height="360" id="3" width="640">
                  <SegmentTemplate initialization="index_video_28_0_init.mp4?m=1566416213" media="index_video_28_0_$Number$.mp4?m=1566416213" presentationTimeOffset="1317997547283" startNumber="8778700" timescale="30000">
                    <SegmentTimeline><S d="180180" r="3" t="1317997547283"/></SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
              </AdaptationSet>
              <AdaptationSet lang="eng" mimeType="audio/mp4" segmentAlignment="0">
                <Label>eng</Label>
                <Representation audioSamplingRate="48000" bandwidth="96636" codecs="mp4a.40.2" id="4">
                  <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/>
                  <SegmentTemplate initialization="index_audio_5_0_init.mp4?m=1566416213" media="index_audio_5_0_$Number$.mp4?m=1566416213" presentationTimeOffset="2108796075909" startNumber="8778700" timescale="48000">
                    <SegmentTimeline><S d="288768" t="2108796075909"/><S d="287744" t="2108796364677"/><S d="288768" t="2108796652421"/><S d="287744" t="2108796941189"/><S d="249856" t="2108797228933"/></SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
                <Representation audioSamplingRate="48000" bandwidth="96636" codecs="mp4a.40.2" id="5">
                  <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/>
                  <SegmentTemplate initialization="index_audio_8_0_init.mp4?m=1566416213" media="index_audio_8_0_$Number$.mp4?m=1566416213" presentationTimeOffset="2108796075909" startNumber="8778700" timescale="48000">
                    <SegmentTimeline><S d="288768" t="2108796075909"/><S d="287744" t="2108796364677"/><S d="288768" t="2108796652421"/><S d="287744" t="2108796941189"/><S d="249856" t="2108797228933"/></SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
                <Representation audioSamplingRate="48000" bandwidth="64643" codecs="mp4a.40.2" id="6">
                  <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/>
                  <SegmentTemplate initialization="index_audio_26_0_init.mp4?m=1566416213" media="index_audio_26_0_$Number$.mp4?m=1566416213" presentationTimeOffset="2108796075909" startNumber="8778700" timescale="48000">
                    <SegmentTimeline><S d="288768" t="2108796075909"/><S d="287744" t="2108796364677"/><S d="288768" t="2108796652421"/><S d="287744" t="2108796941189"/><S d="249856" t="2108797228933"/></SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
              </AdaptationSet>
              <AdaptationSet bitstreamSwitching="true" codecs="stpp" lang="eng" mimeType="application/mp4" segmentAlignment="true" startWithSAP="1">
                <Label>eng</Label>
                <Representation bandwidth="0" id="7">
                  <SegmentTemplate initialization="index_subtitles_4_0_init.mp4?m=1566416213" media="index_subtitles_4_0_$Number$.mp4?m=1566416213" presentationTimeOffset="3953992641850" startNumber="8778700" timescale="90000">
                    <SegmentTimeline><S d="540540" r="3" t="3953992641850"/></SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
              </AdaptationSet>
            </Period><Period duration="PT14.976S" id="8778696_PT25S_0" start="PT53.976S"><BaseURL>https://12345.mediatailor.us-west-2.amazonaws.com/v1/dashsegment/0d598fad40f42c4644d1c5b7674438772ee23b12/dash-vod-insertion/a5a7cf24-ee56-40e9-a0a2-82b483cf8650/8778696_PT25S/8778696_PT25S_0/</BaseURL>
              <AdaptationSet bitstreamSwitching="false" frameRate="30/1" mimeType="video/mp4" segmentAlignment="true" startWithSAP="1" subsegmentAlignment="true" subsegmentStartsWithSAP="1">
                <SegmentTemplate startNumber="1" timescale="90000"/>
                <Representation bandwidth="3296000" codecs="avc1.64001f" height="720" id="1" width="1280">
                  <SegmentTemplate initialization="asset_720_3_1init.mp4" media="asset_720_3_1_$Number%09d$.mp4" startNumber="1">
                    <SegmentTimeline>
                      <S d="180000" r="6" t="0"/>
                      <S d="87000" t="1260000"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
                <Representation bandwidth="2200000" codecs="avc1.64001f" height="540" id="2" width="960">
                  <SegmentTemplate initialization="asset_540_2_0init.mp4" media="asset_540_2_0_$Number%09d$.mp4" startNumber="1">
                    <SegmentTimeline>
                      <S d="180000" r="6" t="0"/>
                      <S d="87000" t="1260000"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
                <Representation bandwidth="800000" codecs="avc1.64001e" height="360" id="3" width="640">
                  <SegmentTemplate initialization="asset_360_0_2init.mp4" media="asset_360_0_2_$Number%09d$.mp4" startNumber="1">
                    <SegmentTimeline>
                      <S d="180000" r="6" t="0"/>
                      <S d="87000" t="1260000"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
              </AdaptationSet>
              <AdaptationSet lang="eng" mimeType="audio/mp4" segmentAlignment="0">
                <SegmentTemplate initialization="asset_audio_96_3init.mp4" media="asset_audio_96_3_$Number%09d$.mp4" startNumber="1" timescale="48000"/>
                <Label>eng</Label>
                <Representation audioSamplingRate="48000" bandwidth="96000" codecs="mp4a.40.2" id="4">
                  <SegmentTemplate initialization="asset_audio_96_3init.mp4" media="asset_audio_96_3_$Number%09d$.mp4" startNumber="1">
                    <SegmentTimeline>
                      <S d="96256" r="3" t="0"/>
                      <S d="95232" t="385024"/>
                      <S d="96256" r="1" t="480256"/>
                      <S d="46080" t="672768"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
              </AdaptationSet>
              <AdaptationSet lang="eng" mimeType="audio/mp4" segmentAlignment="0">
                <SegmentTemplate initialization="asset_audio_96_4init.mp4" media="asset_audio_96_4_$Number%09d$.mp4" startNumber="1" timescale="48000"/>
                <Label>eng</Label>
                <Representation audioSamplingRate="48000" bandwidth="96000" codecs="mp4a.40.2" id="5">
                  <SegmentTemplate initialization="asset_audio_96_4init.mp4" media="asset_audio_96_4_$Number%09d$.mp4" startNumber="1">
                    <SegmentTimeline>
                      <S d="96256" r="3" t="0"/>
                      <S d="95232" t="385024"/>
                      <S d="96256" r="1" t="480256"/>
                      <S d="46080" t="672768"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
              </AdaptationSet>
            </Period><Period duration="PT14.976S" id="8778696_PT25S_1" start="PT1M8.952S"><BaseURL>https://12345.mediatailor.us-west-2.amazonaws.com/v1/dashsegment/0d598fad40f42c4644d1c5b7674438772ee23b12/dash-vod-insertion/a5a7cf24-ee56-40e9-a0a2-82b483cf8650/8778696_PT25S/8778696_PT25S_1/</BaseURL>
              <AdaptationSet bitstreamSwitching="false" frameRate="30/1" mimeType="video/mp4" segmentAlignment="true" startWithSAP="1" subsegmentAlignment="true" subsegmentStartsWithSAP="1">
                <SegmentTemplate startNumber="1" timescale="90000"/>
                <Representation bandwidth="3296000" codecs="avc1.64001f" height="720" id="1" width="1280">
                  <SegmentTemplate initialization="asset_720_3_1init.mp4" media="asset_720_3_1_$Number%09d$.mp4" startNumber="1">
                    <SegmentTimeline>
                      <S d="180000" r="6" t="0"/>
                      <S d="87000" t="1260000"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
                <Representation bandwidth="2200000" codecs="avc1.64001f" height="540" id="2" width="960">
                  <SegmentTemplate initialization="asset_540_2_0init.mp4" media="asset_540_2_0_$Number%09d$.mp4" startNumber="1">
                    <SegmentTimeline>
                      <S d="180000" r="6" t="0"/>
                      <S d="87000" t="1260000"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
                <Representation bandwidth="800000" codecs="avc1.64001e" height="360" id="3" width="640">
                  <SegmentTemplate initialization="asset_360_0_2init.mp4" media="asset_360_0_2_$Number%09d$.mp4" startNumber="1">
                    <SegmentTimeline>
                      <S d="180000" r="6" t="0"/>
                      <S d="87000" t="1260000"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
              </AdaptationSet>
              <AdaptationSet lang="eng" mimeType="audio/mp4" segmentAlignment="0">
                <SegmentTemplate initialization="asset_audio_96_3init.mp4" media="asset_audio_96_3_$Number%09d$.mp4" startNumber="1" timescale="48000"/>
                <Label>eng</Label>
                <Representation audioSamplingRate="48000" bandwidth="96000" codecs="mp4a.40.2" id="4">
                  <SegmentTemplate initialization="asset_audio_96_3init.mp4" media="asset_audio_96_3_$Number%09d$.mp4" startNumber="1">
                    <SegmentTimeline>
                      <S d="96256" r="3" t="0"/>
                      <S d="95232" t="385024"/>
                      <S d="96256" r="1" t="480256"/>
                      <S d="46080" t="672768"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
              </AdaptationSet>
              <AdaptationSet lang="eng" mimeType="audio/mp4" segmentAlignment="0">
                <SegmentTemplate initialization="asset_audio_96_4init.mp4" media="asset_audio_96_4_$Number%09d$.mp4" startNumber="1" timescale="48000"/>
                <Label>eng</Label>
                <Representation audioSamplingRate="48000" bandwidth="96000" codecs="mp4a.40.2" id="5">
                  <SegmentTemplate initialization="asset_audio_96_4init.mp4" media="asset_audio_96_4_$Number%09d$.mp4" startNumber="1">
                    <SegmentTimeline>
                      <S d="96256" r="3" t="0"/>
                      <S d="95232" t="385024"/>
                      <S d="96256" r="1" t="480256"/>
                      <S d="46080" t="672768"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
              </AdaptationSet>
            </Period><Period duration="PT5.205S" id="8778696_PT1M23.928S" start="PT1M23.928S">
              <SupplementalProperty schemeIdUri="urn:scte:dash:utc-time" value="2018-07-27T09:35:44.011Z"/>
              <AdaptationSet bitstreamSwitching="true" mimeType="video/mp4" segmentAlignment="true" startWithSAP="1" subsegmentAlignment="true" subsegmentStartsWithSAP="1">
                <Representation bandwidth="2200000" codecs="avc1.640029" frameRate="30000/1001" height="540" id="1" width="960">
                  <SegmentTemplate initialization="index_video_7_0_init.mp4?m=1566416213" media="index_video_7_0_$Number$.mp4?m=1566416213" presentationTimeOffset="1317998268003" startNumber="8778704" timescale="30000">
                    <SegmentTimeline><S d="156156" t="1317998268003"/></SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
                <Representation bandwidth="3299968" codecs="avc1.640029" frameRate="30000/1001" height="720" id="2" width="1280">
                  <SegmentTemplate initialization="index_video_10_0_init.mp4?m=1566416213" media="index_video_10_0_$Number$.mp4?m=1566416213" presentationTimeOffset="1317998268003" startNumber="8778704" timescale="30000">
                    <SegmentTimeline><S d="156156" t="1317998268003"/></SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
                <Representation bandwidth="800000" codecs="avc1.4D401E" frameRate="30000/1001" height="360" id="3" width="640">
                  <SegmentTemplate initialization="index_video_28_0_init.mp4?m=1566416213" media="index_video_28_0_$Number$.mp4?m=1566416213" presentationTimeOffset="1317998268003" startNumber="8778704" timescale="30000">
                    <SegmentTimeline><S d="156156" t="1317998268003"/></SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
              </AdaptationSet>
              <AdaptationSet lang="eng" mimeType="audio/mp4" segmentAlignment="0">
                <Label>eng</Label>
                <Representation audioSamplingRate="48000" bandwidth="96636" codecs="mp4a.40.2" id="4">
                  <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/>
                  <SegmentTemplate initialization="index_audio_5_0_init.mp4?m=1566416213" media="index_audio_5_0_$Number$.mp4?m=1566416213" presentationTimeOffset="2108797229061" startNumber="8778704" timescale="48000">
                    <SegmentTimeline><S d="249856" t="2108797228933"/></SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
                <Representation audioSamplingRate="48000" bandwidth="96636" codecs="mp4a.40.2" id="5">
                  <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/>
                  <SegmentTemplate initialization="index_audio_8_0_init.mp4?m=1566416213" media="index_audio_8_0_$Number$.mp4?m=1566416213" presentationTimeOffset="2108797229061" startNumber="8778704" timescale="48000">
                    <SegmentTimeline><S d="249856" t="2108797228933"/></SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
                <Representation audioSamplingRate="48000" bandwidth="64643" codecs="mp4a.40.2" id="6">
                  <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/>
                  <SegmentTemplate initialization="index_audio_26_0_init.mp4?m=1566416213" media="index_audio_26_0_$Number$.mp4?m=1566416213" presentationTimeOffset="2108797229061" startNumber="8778704" timescale="48000">
                    <SegmentTimeline><S d="249856" t="2108797228933"/></SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
              </AdaptationSet>
              <AdaptationSet bitstreamSwitching="true" codecs="stpp" lang="eng" mimeType="application/mp4" segmentAlignment="true" startWithSAP="1">
                <Label>eng</Label>
                <Representation bandwidth="0" id="7">
                  <SegmentTemplate initialization="index_subtitles_4_0_init.mp4?m=1566416213" media="index_subtitles_4_0_$Number$.mp4?m=1566416213" presentationTimeOffset="3953994804010" startNumber="8778704" timescale="90000">
                    <SegmentTimeline><S d="468468" t="3953994804010"/></SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
              </AdaptationSet>
            </Period><Period duration="PT18.818S" id="8778704" start="PT1M29.133S">
              <SupplementalProperty schemeIdUri="urn:scte:dash:utc-time" value="2018-07-27T09:36:13.240Z"/>
              <AdaptationSet bitstreamSwitching="true" mimeType="video/mp4" segmentAlignment="true" startWithSAP="1" subsegmentAlignment="true" subsegmentStartsWithSAP="1">
                <Representation bandwidth="2200000" codecs="avc1.640029" frameRate="30000/1001" height="540" id="1" width="960">
                  <SegmentTemplate initialization="index_video_7_0_init.mp4?m=1566416213" media="index_video_7_0_$Number$.mp4?m=1566416213" presentationTimeOffset="1317998424159" startNumber="8778705" timescale="30000">
                    <SegmentTimeline>
                      <S d="24024" t="1317998424159"/>
                      <S d="180180" r="2" t="1317998448183"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
                <Representation bandwidth="3299968" codecs="avc1.640029" frameRate="30000/1001" height="720" id="2" width="1280">
                  <SegmentTemplate initialization="index_video_10_0_init.mp4?m=1566416213" media="index_video_10_0_$Number$.mp4?m=1566416213" presentationTimeOffset="1317998424159" startNumber="8778705" timescale="30000">
                    <SegmentTimeline>
                      <S d="24024" t="1317998424159"/>
                      <S d="180180" r="2" t="1317998448183"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
                <Representation bandwidth="800000" codecs="avc1.4D401E" frameRate="30000/1001" height="360" id="3" width="640">
                  <SegmentTemplate initialization="index_video_28_0_init.mp4?m=1566416213" media="index_video_28_0_$Number$.mp4?m=1566416213" presentationTimeOffset="1317998424159" startNumber="8778705" timescale="30000">
                    <SegmentTimeline>
                      <S d="24024" t="1317998424159"/>
                      <S d="180180" r="2" t="1317998448183"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
              </AdaptationSet>
              <AdaptationSet lang="eng" mimeType="audio/mp4" segmentAlignment="0">
                <Label>eng</Label>
                <Representation audioSamplingRate="48000" bandwidth="96636" codecs="mp4a.40.2" id="4">
                  <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/>
                  <SegmentTemplate initialization="index_audio_5_0_init.mp4?m=1566416213" media="index_audio_5_0_$Number$.mp4?m=1566416213" presentationTimeOffset="2108797478789" startNumber="8778705" timescale="48000">
                    <SegmentTimeline>
                      <S d="38912" t="2108797478789"/>
                      <S d="287744" t="2108797517701"/>
                      <S d="288768" t="2108797805445"/>
                      <S d="287744" t="2108798094213"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
                <Representation audioSamplingRate="48000" bandwidth="96636" codecs="mp4a.40.2" id="5">
                  <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/>
                  <SegmentTemplate initialization="index_audio_8_0_init.mp4?m=1566416213" media="index_audio_8_0_$Number$.mp4?m=1566416213" presentationTimeOffset="2108797478789" startNumber="8778705" timescale="48000">
                    <SegmentTimeline>
                      <S d="38912" t="2108797478789"/>
                      <S d="287744" t="2108797517701"/>
                      <S d="288768" t="2108797805445"/>
                      <S d="287744" t="2108798094213"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
                <Representation audioSamplingRate="48000" bandwidth="64643" codecs="mp4a.40.2" id="6">
                  <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/>
                  <SegmentTemplate initialization="index_audio_26_0_init.mp4?m=1566416213" media="index_audio_26_0_$Number$.mp4?m=1566416213" presentationTimeOffset="2108797478789" startNumber="8778705" timescale="48000">
                    <SegmentTimeline>
                      <S d="38912" t="2108797478789"/>
                      <S d="287744" t="2108797517701"/>
                      <S d="288768" t="2108797805445"/>
                      <S d="287744" t="2108798094213"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
              </AdaptationSet>
              <AdaptationSet bitstreamSwitching="true" codecs="stpp" lang="eng" mimeType="application/mp4" segmentAlignment="true" startWithSAP="1">
                <Label>eng</Label>
                <Representation bandwidth="0" id="7">
                  <SegmentTemplate initialization="index_subtitles_4_0_init.mp4?m=1566416213" media="index_subtitles_4_0_$Number$.mp4?m=1566416213" presentationTimeOffset="3953995272478" startNumber="8778705" timescale="90000">
                    <SegmentTimeline>
                      <S d="72072" t="3953995272478"/>
                      <S d="540540" r="2" t="3953995344550"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                </Representation>
              </AdaptationSet>
            </Period>
          </MPD>

    """#

    /// DASH-IF live simulator: dynamic, `$Number$` templates (`duration="2"`, no timescale,
    /// `startNumber="0"`), `availabilityTimeOffset="INF"`, a UTCTiming; no newline at the end. From
    /// emarsden/dash-mpd-rs, `tests/fixtures/dashif-live-atoinf.mpd`.
    static let dashifLiveNumber = #"""
    <?xml version="1.0" encoding="UTF-8"?>
    <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="urn:mpeg:dash:schema:mpd:2011 DASH-MPD.xsd" profiles="urn:mpeg:dash:profile:isoff-live:2011,http://dashif.org/guidelines/dash-if-simple" type="dynamic" availabilityStartTime="1970-01-01T00:00:00Z" publishTime="1970-01-01T00:00:00Z" minimumUpdatePeriod="PT2S" minBufferTime="PT2S" timeShiftBufferDepth="PT1M" maxSegmentDuration="PT2S">
      <ProgramInformation>
        <Title>Basic MPD with 640x480@30 video at 300kbp and 48kbps audio using SegmentTemplate with `$Number$`</Title>
      </ProgramInformation>
      <Period id="P0" start="PT0S">
        <AdaptationSet lang="en" contentType="audio" segmentAlignment="true" mimeType="audio/mp4" startWithSAP="1">
          <Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"></Role>
          <SegmentTemplate media="$RepresentationID$/$Number$.m4s" initialization="$RepresentationID$/init.mp4" duration="2" startNumber="0" availabilityTimeOffset="INF"></SegmentTemplate>
          <Representation id="A48" bandwidth="48000" audioSamplingRate="48000" codecs="mp4a.40.2">
            <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"></AudioChannelConfiguration>
          </Representation>
        </AdaptationSet>
        <AdaptationSet contentType="video" par="16:9" minWidth="640" maxWidth="640" minHeight="360" maxHeight="360" maxFrameRate="60/2" segmentAlignment="true" mimeType="video/mp4" startWithSAP="1">
          <Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"></Role>
          <SegmentTemplate media="$RepresentationID$/$Number$.m4s" initialization="$RepresentationID$/init.mp4" duration="2" startNumber="0" availabilityTimeOffset="INF"></SegmentTemplate>
          <Representation id="V300" bandwidth="300000" width="640" height="360" sar="1:1" frameRate="60/2" codecs="avc1.64001e"></Representation>
        </AdaptationSet>
      </Period>
      <UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-iso:2014" value="https://time.akamai.com/?isoms"></UTCTiming>
    </MPD>
    """#

    /// A YouTube live MPD with ExoPlayer's placeholder hosts: dynamic, a Period-level SegmentList
    /// holding the SegmentTimeline, SegmentURLs per Representation, `BaseURL`s wrapped in whitespace,
    /// an undeclared `yt:` prefix. From google/ExoPlayer,
    /// `testdata/src/test/assets/media/mpd/sample_mpd_live`.
    static let youtubeLiveSegmentList = #"""
    <?xml version="1.0" encoding="UTF-8"?>
    <MPD xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
        availabilityStartTime="2014-06-19T23:07:42"
        minBufferTime="PT1.500S"
        minimumUpdatePeriod="PT5.000S"
        profiles="urn:mpeg:dash:profile:isoff-main:2011"
        timeShiftBufferDepth="PT129600.000S"
        type="dynamic"
        xmlns="urn:mpeg:DASH:schema:MPD:2011"
        xsi:schemaLocation="urn:mpeg:DASH:schema:MPD:2011 DASH-MPD.xsd"
        yt:earliestMediaSequence="1266404" >
        <ProgramInformation lang="enUs"
            moreInformationURL="www.example.com">
            <Title>MediaTitle</Title>
            <Source>MediaSource</Source>
            <Copyright>MediaCopyright</Copyright>
        </ProgramInformation>
        <Period start="PT6462826.784S" >
            <SegmentList
                presentationTimeOffset="34740095"
                startNumber="1292317"
                timescale="1000" >
                <SegmentTimeline>
                    <S d="4804" />
                    <S d="5338" />
                    <S d="4938" />
                </SegmentTimeline>
            </SegmentList>
            <AdaptationSet
                mimeType="audio/mp4"
                subsegmentAlignment="true" >
                <Role
                    schemeIdUri="urn:mpeg:DASH:role:2011"
                    value="main" />
                <Representation
                    id="141"
                    audioSamplingRate="48000"
                    bandwidth="272000"
                    codecs="mp4a.40.2"
                    startWithSAP="1" >
                    <AudioChannelConfiguration
                        schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011"
                        value="2" />
                    <BaseURL>
    http://www.test.com/141
                    </BaseURL>
                    <SegmentList>
                        <Initialization
                            range="0-591"
                            sourceURL="sq/0/clen/79480/lmt/1403219262956762/dur/4.805" />
                        <SegmentURL media="sq/1292317/clen/77447/lmt/1409671169987621/dur/4.805" />
                        <SegmentURL media="sq/1292318/clen/86958/lmt/1409671174832549/dur/5.339" />
                        <SegmentURL media="sq/1292319/clen/85018/lmt/1409671179719956/dur/4.938" />
                    </SegmentList>
                </Representation>
            </AdaptationSet>
            <AdaptationSet
                mimeType="video/mp4"
                subsegmentAlignment="true" >
                <Role
                    schemeIdUri="urn:mpeg:DASH:role:2011"
                    value="main" />
                <Representation
                    id="135"
                    bandwidth="1116000"
                    codecs="avc1.42c01f"
                    height="480"
                    startWithSAP="1"
                    width="854" >
                    <BaseURL>
    http://www.test.com/135
                    </BaseURL>
                    <SegmentList>
                        <Initialization
                            range="0-671"
                            sourceURL="sq/0/clen/1221137/lmt/1403219262956762/dur/4.805" />
                        <SegmentURL media="sq/1292317/clen/1279915/lmt/1409671169987621/dur/4.805" />
                        <SegmentURL media="sq/1292318/clen/1310650/lmt/1409671174832549/dur/5.339" />
                        <SegmentURL media="sq/1292319/clen/1486558/lmt/1409671179719956/dur/4.938" />
                    </SegmentList>
                </Representation>
            </AdaptationSet>
            <AdaptationSet
                lang="en"
                mimeType="text/vtt" >
                <Role
                    schemeIdUri="urn:mpeg:DASH:role:2011"
                    value="caption" />
                <Representation
                    id="en"
                    bandwidth="0"
                    codecs="" >
                    <BaseURL>
    http://www.test.com/vtt
                    </BaseURL>
                    <SegmentList>
                        <SegmentURL media="sq/1292317" />
                        <SegmentURL media="sq/1292318" />
                        <SegmentURL media="sq/1292319" />
                    </SegmentList>
                </Representation>
            </AdaptationSet>
        </Period>
    </MPD>

    """#

    /// The audio of DASH-IF's Elephants Dream vector (GPAC): a `$Time$` template whose
    /// SegmentTimeline is one `S` with `r="-1"`, repeating to the Period's end; no newline at the
    /// end. From lukasz-j/dash-player, `test/resources/mpd/elephant_template.mpd`.
    static let elephantsDreamOpenEndedTimeline = #"""
    <?xml version="1.0" encoding="utf-8"?>
    <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" minBufferTime="PT1.500000S" type="static"
         mediaPresentationDuration="PT0H10M54.00S" profiles="urn:mpeg:dash:profile:isoff-live:2011">
        <Period id="" duration="PT0H10M54.00S">
            <AdaptationSet segmentAlignment="true">
                <Representation id="4" mimeType="audio/mp4" codecs="mp4a.40.29" audioSamplingRate="48000" startWithSAP="1"
                                bandwidth="33432">
                    <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011"
                                               value="2"/>
                    <SegmentTemplate timescale="48000" media="ED_MPEG2_32k_$Time$.mp4"
                                     initialization="ED_MPEG2_32k_init.mp4">
                        <SegmentTimeline>
                            <S d="94208" r="-1"/>
                        </SegmentTimeline>
                    </SegmentTemplate>
                </Representation>
            </AdaptationSet>
        </Period>
    </MPD>
    """#

    /// A 2015 YouTube on-demand MPD: each Representation one file at a signed `googlevideo.com`
    /// `BaseURL` (wrapped in whitespace) with SegmentBase `indexRange`; AAC, Vorbis, AVC and VP9
    /// sets. From lukasz-j/dash-player, `test/resources/mpd/youtube_full.mpd`.
    static let youtubeOnDemandFull = #"""
    <?xml version="1.0" encoding="UTF-8"?>
    <MPD xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="urn:mpeg:DASH:schema:MPD:2011"
         xmlns:yt="http://youtube.com/yt/2012/10/10" xsi:schemaLocation="urn:mpeg:DASH:schema:MPD:2011 DASH-MPD.xsd"
         minBufferTime="PT1.500S" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" type="static"
         mediaPresentationDuration="PT342.981S">
        <Period>
            <AdaptationSet mimeType="audio/mp4" subsegmentAlignment="true">
                <Role schemeIdUri="urn:mpeg:DASH:role:2011" value="main"/>
                <Representation id="140" codecs="mp4a.40.2" audioSamplingRate="44100" startWithSAP="1" bandwidth="129549">
                    <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011"
                                               value="2"/>
                    <BaseURL yt:contentLength="5506886">
                        http://r6---sn-4g57kney.googlevideo.com/videoplayback?id=fc9d66de83aab6a7&amp;itag=140&amp;source=youtube&amp;mm=31&amp;pl=17&amp;mv=m&amp;nh=IgpwcjAxLmZyYTA1KgkxMjcuMC4wLjE&amp;ms=au&amp;ratebypass=yes&amp;mime=audio/mp4&amp;gir=yes&amp;clen=5506886&amp;lmt=1415260255847388&amp;dur=342.981&amp;upn=zYPyVroRFlU&amp;signature=147CE8667C6CE93F7F53C2E45EA456708511D836.0A4F0DC2B951722C7D3C450336A146E89FACB68C&amp;mt=1427024214&amp;sver=3&amp;key=dg_yt0&amp;fexp=900720,907263,931347,934954,937837,9406630,9407103,9407663,9408102,948124,951511,951703,952302,952612,952901,955301,957201,957506,959701,961404,961502&amp;ip=83.4.0.97&amp;ipbits=0&amp;expire=1427045926&amp;sparams=ip,ipbits,expire,id,itag,source,mm,pl,mv,nh,ms,ratebypass,mime,gir,clen,lmt,dur
                    </BaseURL>
                    <SegmentBase indexRange="592-1043" indexRangeExact="true">
                        <Initialization range="0-591"/>
                    </SegmentBase>
                </Representation>
                <Representation id="141" codecs="mp4a.40.2" audioSamplingRate="44100" startWithSAP="1" bandwidth="255968">
                    <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011"
                                               value="2"/>
                    <BaseURL yt:contentLength="10935653">
                        http://r6---sn-4g57kney.googlevideo.com/videoplayback?id=fc9d66de83aab6a7&amp;itag=141&amp;source=youtube&amp;mm=31&amp;pl=17&amp;mv=m&amp;nh=IgpwcjAxLmZyYTA1KgkxMjcuMC4wLjE&amp;ms=au&amp;ratebypass=yes&amp;mime=audio/mp4&amp;gir=yes&amp;clen=10935653&amp;lmt=1415260258068411&amp;dur=342.981&amp;upn=zYPyVroRFlU&amp;signature=83B2DA0EA355E54026BF63B5C4484EE0ADAE2F70.90530E9A1CFEF911C680C96756883DB64FF3A963&amp;mt=1427024214&amp;sver=3&amp;key=dg_yt0&amp;fexp=900720,907263,931347,934954,937837,9406630,9407103,9407663,9408102,948124,951511,951703,952302,952612,952901,955301,957201,957506,959701,961404,961502&amp;ip=83.4.0.97&amp;ipbits=0&amp;expire=1427045926&amp;sparams=ip,ipbits,expire,id,itag,source,mm,pl,mv,nh,ms,ratebypass,mime,gir,clen,lmt,dur
                    </BaseURL>
                    <SegmentBase indexRange="592-1043" indexRangeExact="true">
                        <Initialization range="0-591"/>
                    </SegmentBase>
                </Representation>
            </AdaptationSet>
            <AdaptationSet mimeType="audio/webm" subsegmentAlignment="true">
                <Role schemeIdUri="urn:mpeg:DASH:role:2011" value="main"/>
                <Representation id="171" codecs="vorbis" audioSamplingRate="44100" startWithSAP="1" bandwidth="130367">
                    <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011"
                                               value="2"/>
                    <BaseURL yt:contentLength="4396316">
                        http://r6---sn-4g57kney.googlevideo.com/videoplayback?id=fc9d66de83aab6a7&amp;itag=171&amp;source=youtube&amp;mm=31&amp;pl=17&amp;mv=m&amp;nh=IgpwcjAxLmZyYTA1KgkxMjcuMC4wLjE&amp;ms=au&amp;ratebypass=yes&amp;mime=audio/webm&amp;gir=yes&amp;clen=4396316&amp;lmt=1413441948326377&amp;dur=342.911&amp;upn=zYPyVroRFlU&amp;signature=2B24E7BAEC64E637F04EB73BDA347378CEC0957A.7752223EA0F7733172375339F1A91498FFE7C66E&amp;mt=1427024214&amp;sver=3&amp;key=dg_yt0&amp;fexp=900720,907263,931347,934954,937837,9406630,9407103,9407663,9408102,948124,951511,951703,952302,952612,952901,955301,957201,957506,959701,961404,961502&amp;ip=83.4.0.97&amp;ipbits=0&amp;expire=1427045926&amp;sparams=ip,ipbits,expire,id,itag,source,mm,pl,mv,nh,ms,ratebypass,mime,gir,clen,lmt,dur
                    </BaseURL>
                    <SegmentBase indexRange="4452-5043" indexRangeExact="true">
                        <Initialization range="0-4451"/>
                    </SegmentBase>
                </Representation>
            </AdaptationSet>
            <AdaptationSet mimeType="video/mp4" subsegmentAlignment="true">
                <Role schemeIdUri="urn:mpeg:DASH:role:2011" value="main"/>
                <Representation id="133" codecs="avc1.4d4015" width="426" height="240" startWithSAP="1" bandwidth="251057"
                                frameRate="25">
                    <BaseURL yt:contentLength="10474417">
                        http://r6---sn-4g57kney.googlevideo.com/videoplayback?id=fc9d66de83aab6a7&amp;itag=133&amp;source=youtube&amp;mm=31&amp;pl=17&amp;mv=m&amp;nh=IgpwcjAxLmZyYTA1KgkxMjcuMC4wLjE&amp;ms=au&amp;ratebypass=yes&amp;mime=video/mp4&amp;gir=yes&amp;clen=10474417&amp;lmt=1415260325729429&amp;dur=342.880&amp;upn=zYPyVroRFlU&amp;signature=04B75C9F06C5E2C1CFE5E34CFF1BBF8A287327AC.2863009692F4947FCE78548FB201C07267D6FD76&amp;mt=1427024214&amp;sver=3&amp;key=dg_yt0&amp;fexp=900720,907263,931347,934954,937837,9406630,9407103,9407663,9408102,948124,951511,951703,952302,952612,952901,955301,957201,957506,959701,961404,961502&amp;ip=83.4.0.97&amp;ipbits=0&amp;expire=1427045926&amp;sparams=ip,ipbits,expire,id,itag,source,mm,pl,mv,nh,ms,ratebypass,mime,gir,clen,lmt,dur
                    </BaseURL>
                    <SegmentBase indexRange="675-1474" indexRangeExact="true">
                        <Initialization range="0-674"/>
                    </SegmentBase>
                </Representation>
                <Representation id="134" codecs="avc1.4d401e" width="640" height="360" startWithSAP="1" bandwidth="617522"
                                frameRate="25">
                    <BaseURL yt:contentLength="16472857">
                        http://r6---sn-4g57kney.googlevideo.com/videoplayback?id=fc9d66de83aab6a7&amp;itag=134&amp;source=youtube&amp;mm=31&amp;pl=17&amp;mv=m&amp;nh=IgpwcjAxLmZyYTA1KgkxMjcuMC4wLjE&amp;ms=au&amp;ratebypass=yes&amp;mime=video/mp4&amp;gir=yes&amp;clen=16472857&amp;lmt=1415260291070366&amp;dur=342.880&amp;upn=zYPyVroRFlU&amp;signature=13307150DD117F7DA0B609A50945837255552B0D.1E468DADF48686F1701C8A867FD22FB629CF5F81&amp;mt=1427024214&amp;sver=3&amp;key=dg_yt0&amp;fexp=900720,907263,931347,934954,937837,9406630,9407103,9407663,9408102,948124,951511,951703,952302,952612,952901,955301,957201,957506,959701,961404,961502&amp;ip=83.4.0.97&amp;ipbits=0&amp;expire=1427045926&amp;sparams=ip,ipbits,expire,id,itag,source,mm,pl,mv,nh,ms,ratebypass,mime,gir,clen,lmt,dur
                    </BaseURL>
                    <SegmentBase indexRange="710-1509" indexRangeExact="true">
                        <Initialization range="0-709"/>
                    </SegmentBase>
                </Representation>
                <Representation id="135" codecs="avc1.4d401e" width="854" height="480" startWithSAP="1" bandwidth="1136247"
                                frameRate="25">
                    <BaseURL yt:contentLength="32528972">
                        http://r6---sn-4g57kney.googlevideo.com/videoplayback?id=fc9d66de83aab6a7&amp;itag=135&amp;source=youtube&amp;mm=31&amp;pl=17&amp;mv=m&amp;nh=IgpwcjAxLmZyYTA1KgkxMjcuMC4wLjE&amp;ms=au&amp;ratebypass=yes&amp;mime=video/mp4&amp;gir=yes&amp;clen=32528972&amp;lmt=1415260291043899&amp;dur=342.880&amp;upn=zYPyVroRFlU&amp;signature=72B0F8B0E38DC01C9F479DAE2B99A049D46F2B51.930B0D9374265166803199A9F37812C8545543E0&amp;mt=1427024214&amp;sver=3&amp;key=dg_yt0&amp;fexp=900720,907263,931347,934954,937837,9406630,9407103,9407663,9408102,948124,951511,951703,952302,952612,952901,955301,957201,957506,959701,961404,961502&amp;ip=83.4.0.97&amp;ipbits=0&amp;expire=1427045926&amp;sparams=ip,ipbits,expire,id,itag,source,mm,pl,mv,nh,ms,ratebypass,mime,gir,clen,lmt,dur
                    </BaseURL>
                    <SegmentBase indexRange="710-1509" indexRangeExact="true">
                        <Initialization range="0-709"/>
                    </SegmentBase>
                </Representation>
                <Representation id="160" codecs="avc1.4d400c" width="256" height="144" startWithSAP="1" bandwidth="112919"
                                frameRate="13">
                    <BaseURL yt:contentLength="4720320">
                        http://r6---sn-4g57kney.googlevideo.com/videoplayback?id=fc9d66de83aab6a7&amp;itag=160&amp;source=youtube&amp;mm=31&amp;pl=17&amp;mv=m&amp;nh=IgpwcjAxLmZyYTA1KgkxMjcuMC4wLjE&amp;ms=au&amp;ratebypass=yes&amp;mime=video/mp4&amp;gir=yes&amp;clen=4720320&amp;lmt=1415260274468408&amp;dur=342.920&amp;upn=zYPyVroRFlU&amp;signature=9AD9E1014E859A48895C4AC946101DA05A106A3B.5B0A4114DEED1D8360178E8023654CF12B454258&amp;mt=1427024214&amp;sver=3&amp;key=dg_yt0&amp;fexp=900720,907263,931347,934954,937837,9406630,9407103,9407663,9408102,948124,951511,951703,952302,952612,952901,955301,957201,957506,959701,961404,961502&amp;ip=83.4.0.97&amp;ipbits=0&amp;expire=1427045926&amp;sparams=ip,ipbits,expire,id,itag,source,mm,pl,mv,nh,ms,ratebypass,mime,gir,clen,lmt,dur
                    </BaseURL>
                    <SegmentBase indexRange="672-1471" indexRangeExact="true">
                        <Initialization range="0-671"/>
                    </SegmentBase>
                </Representation>
                <Representation id="136" codecs="avc1.4d401f" width="1280" height="720" startWithSAP="1" bandwidth="2267574"
                                frameRate="25">
                    <BaseURL yt:contentLength="60623167">
                        http://r6---sn-4g57kney.googlevideo.com/videoplayback?id=fc9d66de83aab6a7&amp;itag=136&amp;source=youtube&amp;mm=31&amp;pl=17&amp;mv=m&amp;nh=IgpwcjAxLmZyYTA1KgkxMjcuMC4wLjE&amp;ms=au&amp;ratebypass=yes&amp;mime=video/mp4&amp;gir=yes&amp;clen=60623167&amp;lmt=1415260356501465&amp;dur=342.880&amp;upn=zYPyVroRFlU&amp;signature=8D6DFA2D9A7642483AEFF0992597FC5D0915FC32.0D0EB2E194336E1B05275A35CD2E15B0936AFCF4&amp;mt=1427024214&amp;sver=3&amp;key=dg_yt0&amp;fexp=900720,907263,931347,934954,937837,9406630,9407103,9407663,9408102,948124,951511,951703,952302,952612,952901,955301,957201,957506,959701,961404,961502&amp;ip=83.4.0.97&amp;ipbits=0&amp;expire=1427045926&amp;sparams=ip,ipbits,expire,id,itag,source,mm,pl,mv,nh,ms,ratebypass,mime,gir,clen,lmt,dur
                    </BaseURL>
                    <SegmentBase indexRange="711-1510" indexRangeExact="true">
                        <Initialization range="0-710"/>
                    </SegmentBase>
                </Representation>
                <Representation id="137" codecs="avc1.640028" width="1920" height="1080" startWithSAP="1"
                                bandwidth="4235268" frameRate="25">
                    <BaseURL yt:contentLength="114305844">
                        http://r6---sn-4g57kney.googlevideo.com/videoplayback?id=fc9d66de83aab6a7&amp;itag=137&amp;source=youtube&amp;mm=31&amp;pl=17&amp;mv=m&amp;nh=IgpwcjAxLmZyYTA1KgkxMjcuMC4wLjE&amp;ms=au&amp;ratebypass=yes&amp;mime=video/mp4&amp;gir=yes&amp;clen=114305844&amp;lmt=1415260893636237&amp;dur=342.880&amp;upn=zYPyVroRFlU&amp;signature=5BDDC45F1E4E7655F78AF11A6B093375B29ED326.4F20E6FFD71138693D9704CC263420D6B2272D44&amp;mt=1427024214&amp;sver=3&amp;key=dg_yt0&amp;fexp=900720,907263,931347,934954,937837,9406630,9407103,9407663,9408102,948124,951511,951703,952302,952612,952901,955301,957201,957506,959701,961404,961502&amp;ip=83.4.0.97&amp;ipbits=0&amp;expire=1427045926&amp;sparams=ip,ipbits,expire,id,itag,source,mm,pl,mv,nh,ms,ratebypass,mime,gir,clen,lmt,dur
                    </BaseURL>
                    <SegmentBase indexRange="713-1512" indexRangeExact="true">
                        <Initialization range="0-712"/>
                    </SegmentBase>
                </Representation>
            </AdaptationSet>
            <AdaptationSet mimeType="video/webm" subsegmentAlignment="true">
                <Role schemeIdUri="urn:mpeg:DASH:role:2011" value="main"/>
                <Representation id="242" codecs="vp9" width="426" height="240" startWithSAP="1" bandwidth="209995"
                                frameRate="25">
                    <BaseURL yt:contentLength="6634928">
                        http://r6---sn-4g57kney.googlevideo.com/videoplayback?id=fc9d66de83aab6a7&amp;itag=242&amp;source=youtube&amp;mm=31&amp;pl=17&amp;mv=m&amp;nh=IgpwcjAxLmZyYTA1KgkxMjcuMC4wLjE&amp;ms=au&amp;ratebypass=yes&amp;mime=video/webm&amp;gir=yes&amp;clen=6634928&amp;lmt=1413441982676021&amp;dur=342.880&amp;upn=zYPyVroRFlU&amp;signature=0255B0188D5D0BD550901324B292FBED6927A408.3C318783CB101BB9EBA7E9204BFB5419492CE1A4&amp;mt=1427024214&amp;sver=3&amp;key=dg_yt0&amp;fexp=900720,907263,931347,934954,937837,9406630,9407103,9407663,9408102,948124,951511,951703,952302,952612,952901,955301,957201,957506,959701,961404,961502&amp;ip=83.4.0.97&amp;ipbits=0&amp;expire=1427045926&amp;sparams=ip,ipbits,expire,id,itag,source,mm,pl,mv,nh,ms,ratebypass,mime,gir,clen,lmt,dur
                    </BaseURL>
                    <SegmentBase indexRange="234-1311" indexRangeExact="true">
                        <Initialization range="0-233"/>
                    </SegmentBase>
                </Representation>
                <Representation id="243" codecs="vp9" width="640" height="360" startWithSAP="1" bandwidth="391311"
                                frameRate="25">
                    <BaseURL yt:contentLength="12233105">
                        http://r6---sn-4g57kney.googlevideo.com/videoplayback?id=fc9d66de83aab6a7&amp;itag=243&amp;source=youtube&amp;mm=31&amp;pl=17&amp;mv=m&amp;nh=IgpwcjAxLmZyYTA1KgkxMjcuMC4wLjE&amp;ms=au&amp;ratebypass=yes&amp;mime=video/webm&amp;gir=yes&amp;clen=12233105&amp;lmt=1413441995575929&amp;dur=342.880&amp;upn=zYPyVroRFlU&amp;signature=5186AA8FC6A262F29C7767E19237308D959DE490.32B572AEA42067AE381AEF7FD641BF4DE503B059&amp;mt=1427024214&amp;sver=3&amp;key=dg_yt0&amp;fexp=900720,907263,931347,934954,937837,9406630,9407103,9407663,9408102,948124,951511,951703,952302,952612,952901,955301,957201,957506,959701,961404,961502&amp;ip=83.4.0.97&amp;ipbits=0&amp;expire=1427045926&amp;sparams=ip,ipbits,expire,id,itag,source,mm,pl,mv,nh,ms,ratebypass,mime,gir,clen,lmt,dur
                    </BaseURL>
                    <SegmentBase indexRange="235-1313" indexRangeExact="true">
                        <Initialization range="0-234"/>
                    </SegmentBase>
                </Representation>
                <Representation id="244" codecs="vp9" width="854" height="480" startWithSAP="1" bandwidth="789804"
                                frameRate="25">
                    <BaseURL yt:contentLength="24067587">
                        http://r6---sn-4g57kney.googlevideo.com/videoplayback?id=fc9d66de83aab6a7&amp;itag=244&amp;source=youtube&amp;mm=31&amp;pl=17&amp;mv=m&amp;nh=IgpwcjAxLmZyYTA1KgkxMjcuMC4wLjE&amp;ms=au&amp;ratebypass=yes&amp;mime=video/webm&amp;gir=yes&amp;clen=24067587&amp;lmt=1413442008137205&amp;dur=342.880&amp;upn=zYPyVroRFlU&amp;signature=06761098665A29AE44B84A516BC4DC898425546D.726064072F7E2A75485FD2BB0909A08BCBB43B2D&amp;mt=1427024214&amp;sver=3&amp;key=dg_yt0&amp;fexp=900720,907263,931347,934954,937837,9406630,9407103,9407663,9408102,948124,951511,951703,952302,952612,952901,955301,957201,957506,959701,961404,961502&amp;ip=83.4.0.97&amp;ipbits=0&amp;expire=1427045926&amp;sparams=ip,ipbits,expire,id,itag,source,mm,pl,mv,nh,ms,ratebypass,mime,gir,clen,lmt,dur
                    </BaseURL>
                    <SegmentBase indexRange="235-1331" indexRangeExact="true">
                        <Initialization range="0-234"/>
                    </SegmentBase>
                </Representation>
                <Representation id="278" codecs="vp9" width="256" height="144" startWithSAP="1" bandwidth="103850"
                                frameRate="13">
                    <BaseURL yt:contentLength="3479201">
                        http://r6---sn-4g57kney.googlevideo.com/videoplayback?id=fc9d66de83aab6a7&amp;itag=278&amp;source=youtube&amp;mm=31&amp;pl=17&amp;mv=m&amp;nh=IgpwcjAxLmZyYTA1KgkxMjcuMC4wLjE&amp;ms=au&amp;ratebypass=yes&amp;mime=video/webm&amp;gir=yes&amp;clen=3479201&amp;lmt=1413441992984273&amp;dur=342.920&amp;upn=zYPyVroRFlU&amp;signature=620C5E935F358F39E7CC8D2420D2804DF5F98847.169478C49DC4D57623F8532962342DFCE1A77DEB&amp;mt=1427024214&amp;sver=3&amp;key=dg_yt0&amp;fexp=900720,907263,931347,934954,937837,9406630,9407103,9407663,9408102,948124,951511,951703,952302,952612,952901,955301,957201,957506,959701,961404,961502&amp;ip=83.4.0.97&amp;ipbits=0&amp;expire=1427045926&amp;sparams=ip,ipbits,expire,id,itag,source,mm,pl,mv,nh,ms,ratebypass,mime,gir,clen,lmt,dur
                    </BaseURL>
                    <SegmentBase indexRange="234-1311" indexRangeExact="true">
                        <Initialization range="0-233"/>
                    </SegmentBase>
                </Representation>
                <Representation id="247" codecs="vp9" width="1280" height="720" startWithSAP="1" bandwidth="1485351"
                                frameRate="25">
                    <BaseURL yt:contentLength="45594768">
                        http://r6---sn-4g57kney.googlevideo.com/videoplayback?id=fc9d66de83aab6a7&amp;itag=247&amp;source=youtube&amp;mm=31&amp;pl=17&amp;mv=m&amp;nh=IgpwcjAxLmZyYTA1KgkxMjcuMC4wLjE&amp;ms=au&amp;ratebypass=yes&amp;mime=video/webm&amp;gir=yes&amp;clen=45594768&amp;lmt=1413442031104455&amp;dur=342.880&amp;upn=zYPyVroRFlU&amp;signature=562BA4DB520BBD79615EB77DEAB03D5B98F68FD1.518D80054FDE6BBB1CB143BE6A2B1D35A49A75DF&amp;mt=1427024214&amp;sver=3&amp;key=dg_yt0&amp;fexp=900720,907263,931347,934954,937837,9406630,9407103,9407663,9408102,948124,951511,951703,952302,952612,952901,955301,957201,957506,959701,961404,961502&amp;ip=83.4.0.97&amp;ipbits=0&amp;expire=1427045926&amp;sparams=ip,ipbits,expire,id,itag,source,mm,pl,mv,nh,ms,ratebypass,mime,gir,clen,lmt,dur
                    </BaseURL>
                    <SegmentBase indexRange="235-1350" indexRangeExact="true">
                        <Initialization range="0-234"/>
                    </SegmentBase>
                </Representation>
                <Representation id="248" codecs="vp9" width="1920" height="1080" startWithSAP="1" bandwidth="2323644"
                                frameRate="25">
                    <BaseURL yt:contentLength="75811503">
                        http://r6---sn-4g57kney.googlevideo.com/videoplayback?id=fc9d66de83aab6a7&amp;itag=248&amp;source=youtube&amp;mm=31&amp;pl=17&amp;mv=m&amp;nh=IgpwcjAxLmZyYTA1KgkxMjcuMC4wLjE&amp;ms=au&amp;ratebypass=yes&amp;mime=video/webm&amp;gir=yes&amp;clen=75811503&amp;lmt=1413442080272449&amp;dur=342.880&amp;upn=zYPyVroRFlU&amp;signature=2644831065B2A373441977A0982197865AB69CD0.8CC8CE06BADC1963473E3FF0A6F1DD6839A59E2C&amp;mt=1427024214&amp;sver=3&amp;key=dg_yt0&amp;fexp=900720,907263,931347,934954,937837,9406630,9407103,9407663,9408102,948124,951511,951703,952302,952612,952901,955301,957201,957506,959701,961404,961502&amp;ip=83.4.0.97&amp;ipbits=0&amp;expire=1427045926&amp;sparams=ip,ipbits,expire,id,itag,source,mm,pl,mv,nh,ms,ratebypass,mime,gir,clen,lmt,dur
                    </BaseURL>
                    <SegmentBase indexRange="235-1359" indexRangeExact="true">
                        <Initialization range="0-234"/>
                    </SegmentBase>
                </Representation>
            </AdaptationSet>
        </Period>
    </MPD>

    """#
}
