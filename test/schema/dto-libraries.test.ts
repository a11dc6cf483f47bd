import { IsInt } from 'class-validator';
import { validationMetadataExists } from '../../src/schema/dto-libraries';

describe('class-validator, loaded on first need', () => {
  // toolwright reads class-validator's global metadata storage to know, without loading
  // class-validator, that no class has its decorators: a new class-validator that kept its
  // metadata elsewhere would make DTOs look like context classes, so this test guards the contract.
  it('knows a class-validator decorator has run by the global storage the decorator creates', () => {
    expect(validationMetadataExists()).toBe(false);
    class Order {
      @IsInt()
      qty!: number;
    }
    expect(new Order()).toBeInstanceOf(Order);
    expect(validationMetadataExists()).toBe(true);
  });
});
