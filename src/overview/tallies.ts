export interface HourTally {
  hour: Date;
  status: string;
  count: number;
}
