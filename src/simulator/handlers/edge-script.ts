// 4.3 Edge script: ids 1..1000 exist, each deterministic (API.md 2.6, PascalCase).
import { EdgeScriptType } from '../../api/enums.js';
import { hex8 } from '../json-text.js';
import { hashOf, Rng } from '../prng.js';
import { json, statusOnly, type Reply } from '../replies.js';
import type { HandlerContext } from './context.js';

export const MAX_RESOURCE_ID = 1000;

export function edgeScript(ctx: HandlerContext, id: number): Reply {
  if (id < 1 || id > MAX_RESOURCE_ID) return statusOnly(404, ctx.echo);
  const rng = new Rng(hashOf(ctx.opts.seed, 'edge-script', id));
  const name = `sim-script-${id}`;
  const zones = [...ctx.opts.pullZones];
  const linked = zones.length === 0 ? [] : zones.filter(() => rng.chance(0.5));
  const repositoryId = 50_000 + id;
  const integrationId = 70_000 + id;
  const body = {
    Id: id,
    Name: name,
    LastModified: new Date(Date.UTC(2025, 0, 1) + rng.int(0, 600) * 86_400_000).toISOString(),
    ScriptType: rng.pick(Object.values(EdgeScriptType)),
    CurrentReleaseId: 900_000 + id * 10 + rng.int(0, 9),
    EdgeScriptVariables: [
      { Id: id * 10 + 1, Name: 'ORIGIN_URL', Required: true, DefaultValue: 'https://origin.example.com' },
      { Id: id * 10 + 2, Name: 'CACHE_TTL', Required: false, DefaultValue: String(rng.int(60, 3600)) },
    ],
    Deleted: false,
    LinkedPullZones: linked.map((zone) => ({
      Id: zone,
      PullZoneName: `pz-${zone}`,
      DefaultHostname: `pz-${zone}.b-cdn.net`,
    })),
    Integration: {
      IntegrationId: integrationId,
      RepositorySettings: {
        Id: repositoryId,
        Name: `edge-scripts/${name}`,
        Private: rng.chance(0.7),
        TemplateUrl: 'https://github.com/example/edge-script-template',
      },
      DeployConfiguration: {
        Branch: 'main',
        InstallCommand: 'npm ci',
        BuildCommand: 'npm run build',
        EntryFile: 'dist/index.js',
        CreateWorkflow: rng.chance(0.5),
      },
    },
    DefaultHostname: `${name}.b-cdn.net`,
    SystemHostname: `${name}-${hex8(rng.next())}.bunny.run`,
    DeploymentKey: `${hex8(rng.next())}${hex8(rng.next())}-${hex8(rng.next())}`,
    RepositoryId: repositoryId,
    IntegrationId: integrationId,
    MonthlyCost: Math.round(rng.float() * 5000) / 100,
    MonthlyRequestCount: rng.int(0, 50_000_000),
    MonthlyCpuTime: rng.int(0, 10_000_000),
  };
  return json(200, JSON.stringify(body));
}
