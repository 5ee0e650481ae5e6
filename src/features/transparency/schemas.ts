/**
 * Schemas of the dataset's public paths (extension E10): their path parameters (checked by the
 * handlers, so that anything but an enabled organization and a day with a file is a plain 404).
 */
import Type from 'typebox';

export const OrganizationFileParams = Type.Object({
  organization_id: Type.String({ description: "The organization's id (UUID)." }),
});

export const DayFileParams = Type.Object({
  organization_id: OrganizationFileParams.properties.organization_id,
  file: Type.String({ description: 'The day\'s file: `YYYY-MM-DD.csv` (the day in Europe/Warsaw).', examples: ['2026-11-26.csv'] }),
});
