import { IsInt, IsString, Matches, Min } from 'class-validator';

/** An order line: class-validator rules, checked under tsx too. */
export class OrderDto {
  /** Article number, such as A-12. */
  @IsString()
  @Matches(/^[a-z]-\d+$/i)
  sku!: string;

  /** How many. */
  @IsInt()
  @Min(1)
  qty!: number;

  /** A method: the tool receives an instance, not a plain object. */
  summary(): string {
    return `${this.qty} × ${this.sku.toUpperCase()}`;
  }
}
