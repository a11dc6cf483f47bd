import { audioContent, contentResult, embeddedResource, imageContent, Tool, ToolService, type ToolContent, type ToolResult } from '../../src';

/** A 1×1 red PNG, base64. */
const RED_PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A WAV file: 8 samples of 8-bit mono silence at 8 kHz. */
function tinyWav(): Buffer {
  const samples = 8;
  const wav = Buffer.alloc(44 + samples, 0x80);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + samples, 4);
  wav.write('WAVEfmt ', 8, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(8000, 24); // samples per second
  wav.writeUInt32LE(8000, 28); // bytes per second
  wav.writeUInt16LE(1, 32); // block align
  wav.writeUInt16LE(8, 34); // bits per sample
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(samples, 40);
  return wav;
}

/**
 * The tools of the conformance suite's content scenarios (`tools-call-image`, `-audio`,
 * `-embedded-resource`, `-mixed-content`), written as a user writes rich results: content helpers
 * returned from decorated methods. Each method's JSDoc names its scenario.
 */
@ToolService({ group: 'conformance' })
export class ConformanceContentService {
  /** `tools-call-image`: one image part (a 1×1 red PNG). */
  @Tool({ name: 'test_image_content', description: 'Returns image content' })
  image(): ToolContent {
    return imageContent(RED_PIXEL_PNG, 'image/png');
  }

  /** `tools-call-audio`: one audio part (`audio/wav`). */
  @Tool({ name: 'test_audio_content', description: 'Returns audio content' })
  audio(): ToolContent {
    return audioContent(tinyWav(), 'audio/wav');
  }

  /** `tools-call-embedded-resource`: one embedded text resource. */
  @Tool({ name: 'test_embedded_resource', description: 'Returns an embedded resource' })
  embedded(): ToolContent {
    return embeddedResource({ uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' });
  }

  /** `tools-call-mixed-content`: text, an image and an embedded JSON resource. */
  @Tool({ name: 'test_multiple_content_types', description: 'Returns text, image and resource content' })
  mixed(): ToolResult {
    return contentResult([
      'Multiple content types test:',
      imageContent(RED_PIXEL_PNG, 'image/png'),
      embeddedResource({ uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) }),
    ]);
  }
}
