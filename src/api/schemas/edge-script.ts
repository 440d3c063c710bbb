// Edge script (API.md 2.6): PascalCase fields, tolerant of unknown fields and of nulls.
import { z } from 'zod';
import { opt } from './scalars.js';

const int = opt(z.number().int());
const str = opt(z.string());
const bool = opt(z.boolean());

export const edgeScriptSchema = z.looseObject({
  Id: int,
  Name: str,
  LastModified: str,
  CurrentReleaseId: int,
  EdgeScriptVariables: opt(z.array(z.looseObject({ Id: int, Name: str, Required: bool, DefaultValue: str }))),
  Deleted: bool,
  LinkedPullZones: opt(z.array(z.looseObject({ Id: int, PullZoneName: str, DefaultHostname: str }))),
  Integration: opt(
    z.looseObject({
      IntegrationId: int,
      RepositorySettings: opt(z.looseObject({ Id: int, Name: str, Private: bool, TemplateUrl: str })),
      DeployConfiguration: opt(
        z.looseObject({
          Branch: str,
          InstallCommand: str,
          BuildCommand: str,
          EntryFile: str,
          CreateWorkflow: bool,
        }),
      ),
    }),
  ),
  DefaultHostname: str,
  SystemHostname: str,
  DeploymentKey: str,
  RepositoryId: int,
  IntegrationId: int,
  MonthlyCost: opt(z.number()),
  MonthlyRequestCount: int,
  MonthlyCpuTime: int,
});

export type EdgeScript = z.infer<typeof edgeScriptSchema>;
