import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min, ValidateNested } from 'class-validator';

/** How far ahead, and in which unit: a nested DTO, validated with its parent. */
export class ForecastWindow {
  @IsInt() @Min(1) @Max(14) days!: number;
  @IsOptional() @IsIn(['celsius', 'fahrenheit']) unit?: 'celsius' | 'fahrenheit';
}

/** A DTO: its class-validator rules become the tool's JSON Schema, and the tool receives an instance. */
export class ForecastRequest {
  @IsString() @Length(2, 80) city!: string;
  @ValidateNested() @Type(() => ForecastWindow) window!: ForecastWindow;

  label(): string {
    return `${this.city}, ${this.window.days} day${this.window.days === 1 ? '' : 's'}`;
  }
}
