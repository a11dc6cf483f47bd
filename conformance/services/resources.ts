import { Resource, ResourceParam, ToolService } from '../../src';

/** A 1×1 PNG: the binary content of `test://static-binary`. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/**
 * The resources the conformance suite's `resources-*` scenarios read and subscribe to, written as
 * a user writes toolwright resources: a decorated service. Each method's JSDoc names its scenario.
 */
@ToolService({ group: 'conformance' })
export class ConformanceResourcesService {
  /** `resources-list`, `resources-read-text`: a fixed text resource. */
  @Resource({ uri: 'test://static-text', name: 'static_text', mimeType: 'text/plain', description: 'A static text resource' })
  staticText(): string {
    return 'This is the content of the static text resource.';
  }

  /** `resources-read-binary`: bytes become a base64 blob. */
  @Resource({ uri: 'test://static-binary', name: 'static_binary', mimeType: 'image/png', description: 'A static binary resource (a PNG)' })
  staticBinary(): Buffer {
    return PNG;
  }

  /** `resources-templates-read`: `{id}` becomes a parameter; a plain object is JSON text. */
  @Resource({ uriTemplate: 'test://template/{id}/data', name: 'template_data', mimeType: 'application/json', description: 'Data for an id' })
  templateData(@ResourceParam({ name: 'id', description: 'The id' }) id: string): object {
    return { id, templateTest: true, data: `Data for ID: ${id}` };
  }

  /** `resources-subscribe`, `resources-unsubscribe`: a resource clients watch (`toolkit.resources.notifyUpdated(uri)`). */
  @Resource({ uri: 'test://watched-resource', name: 'watched_resource', mimeType: 'text/plain', description: 'A resource to subscribe to' })
  watched(): string {
    return 'Watched resource content';
  }
}
