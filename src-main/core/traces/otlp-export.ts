/**
 * Exporting call traces to an OpenTelemetry collector (OTLP over HTTP), off by default. It is on
 * when the standard variable OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT is
 * set (and OTEL_SDK_DISABLED is not "true"); the exporter reads the rest of the OTEL_EXPORTER_OTLP_*
 * variables (headers, timeout) itself. The SDK is imported only then, so when off it costs nothing.
 */
import type { Tracer } from '@opentelemetry/api';
import type { CallTrace } from '../../../src-preload/contract/traces';
import type { Logger } from '../ports';
import type { TraceSink } from './call-traces';

interface Loaded {
  tracer: Tracer;
  emit: (tracer: Tracer, trace: CallTrace) => void;
  shutdown: () => Promise<void>;
}

/** The collector's URL when export is switched on in `env`, else undefined. */
export function otlpTracesEndpoint(env: NodeJS.ProcessEnv): string | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

export function otlpSinkFromEnv(env: NodeJS.ProcessEnv, logger: Logger, version: string): TraceSink | undefined {
  const url = otlpTracesEndpoint(env);
  if (!url) return undefined;
  const loaded = load(url, version).then(
    (otel) => {
      logger.info('call traces are exported over OTLP/HTTP', { url: new URL(url).origin });
      return otel;
    },
    (error: unknown) => {
      logger.warn('could not start exporting call traces over OTLP', { error: error instanceof Error ? error.message : String(error) });
      return undefined;
    },
  );
  return {
    export: (trace) => void loaded.then((otel) => otel?.emit(otel.tracer, trace)),
    shutdown: async () => (await loaded)?.shutdown(),
  };
}

async function load(url: string, version: string): Promise<Loaded> {
  const [{ BasicTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }, { emitSpan }] = await Promise.all([
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('./trace-span'),
  ]);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'switchboard', 'service.version': version }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  return { tracer: provider.getTracer('switchboard', version), emit: emitSpan, shutdown: () => provider.shutdown() };
}
