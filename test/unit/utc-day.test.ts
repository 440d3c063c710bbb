import { describe, expect, it } from 'vitest';
import {
  addDays,
  dayEndMs,
  dayOf,
  dayRange,
  dayStartMs,
  isoTime,
  parseDay,
  toApiDate,
  type Day,
} from '../../src/time/utc-day.js';

describe('parseDay', () => {
  it.each([
    ['2024-10-15', '2024-10-15'],
    ['10-15-2024', '2024-10-15'],
    ['2024-02-29', '2024-02-29'],
    ['02-29-2024', '2024-02-29'],
    ['1970-01-01', '1970-01-01'],
  ])('%s → %s', (input, day) => {
    expect(parseDay(input)).toBe(day);
  });

  it.each([
    ['2023-02-29', 'not a real calendar day'],
    ['2024-13-01', 'not a real calendar day'],
    ['13-01-2024', 'not a real calendar day'],
    ['2024-1-5', 'is not a date'],
    ['15.10.2024', 'is not a date'],
    ['', 'is not a date'],
    ['1969-12-31', 'not a real calendar day'],
  ])('rejects %j', (input, message) => {
    expect(() => parseDay(input)).toThrow(message);
  });
});

describe('day arithmetic (UTC)', () => {
  const day = '2024-10-15' as Day;
  it('formats the API path date as MM-dd-yyyy', () => expect(toApiDate(day)).toBe('10-15-2024'));
  it('maps a millisecond timestamp to its UTC day', () => {
    expect(dayOf(1728952065848)).toBe('2024-10-15'); // API-NOTES' example: 2024-10-15T00:27:45.848Z
    expect(isoTime(1728952065848)).toBe('2024-10-15T00:27:45.848Z');
  });
  it('bounds a day', () => {
    expect(dayStartMs(day)).toBe(Date.UTC(2024, 9, 15));
    expect(dayEndMs(day) - dayStartMs(day)).toBe(86_400_000);
    expect(dayOf(dayEndMs(day) - 1)).toBe('2024-10-15');
    expect(dayOf(dayEndMs(day))).toBe('2024-10-16');
  });
  it('adds days across month and year ends', () => {
    expect(addDays('2024-12-31' as Day, 1)).toBe('2025-01-01');
    expect(addDays('2024-03-01' as Day, -1)).toBe('2024-02-29');
  });
  it('lists a range inclusively, empty when reversed', () => {
    expect(dayRange('2024-02-27' as Day, '2024-03-01' as Day)).toEqual([
      '2024-02-27',
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
    ]);
    expect(dayRange('2024-03-01' as Day, '2024-02-27' as Day)).toEqual([]);
  });
});
