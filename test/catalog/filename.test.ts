import { describe, expect, it } from 'vitest';
import { androidVersionOfLineage, parseBuildFilename } from '../../src/catalog/filename.js';

describe('the Android version a LineageOS version stands for', () => {
  it.each([
    ['17.1', '10'],
    ['18.1', '11'],
    ['19.1', '12'],
    ['20.0', '13'],
    ['21.0', '14'],
    ['22.0', '15'],
    ['22.1', '15'],
    ['22.2', '15'],
    ['23.0', '16'],
    ['23.2', '16'],
  ])('%s is Android %s', (version, android) => {
    expect(androidVersionOfLineage(version)).toBe(android);
  });

  it.each(['16.0', '17.0', '21.1', '24.0', '2.5', '21'])('%s names no release it knows', (version) => {
    expect(androidVersionOfLineage(version)).toBeUndefined();
  });

  it('fills a LineageOS file name with it, and leaves a name of an unknown release without one', () => {
    expect(parseBuildFilename('lineage-22.1-20250110-nightly-FP4-signed.zip')).toMatchObject({
      form: 'lineage',
      version: '22.1',
      androidVersion: '15',
    });
    expect(parseBuildFilename('lineage-2.5-20241108-official-FP4-signed.zip')?.androidVersion).toBeUndefined();
  });
});
