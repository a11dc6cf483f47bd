import { Tool, ToolParam, ToolService } from 'toolwright';
import { OrderDto } from './order.dto.js';
import { UserContext } from './user-context.js';

/** Plain TypeScript and JSDoc: the manifest says the rest. */
@ToolService()
export class OrdersService {
  /**
   * Place an order for the current user.
   * @param order What to order
   * @param deliverOn The delivery day
   */
  @Tool()
  placeOrder(@ToolParam() order: OrderDto, @ToolParam() deliverOn: Date, user: UserContext): string {
    return `${order.summary()} for ${user.name}, delivered ${deliverOn.toISOString().slice(0, 10)}`;
  }
}
