import { IsInt, IsString, Length, Max, Min } from 'class-validator';

/** A DTO: its class-validator rules become the tool's JSON Schema, and the tool receives an instance. */
export class ForecastRequest {
  @IsString() @Length(2, 80) city!: string;
  @IsInt() @Min(1) @Max(7) days!: number;

  label(): string {
    return `${this.city}, ${this.days} day${this.days === 1 ? '' : 's'}`;
  }
}
