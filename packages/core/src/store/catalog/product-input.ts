import { Schema, SchemaAST } from "effect"
import { MIN_PRICE_CENTS, PaymentPlan, type ProductChanges, type ProductFieldName, ProductFields } from "./product.js"

// A field the store API already types as nullable keeps its one `null` branch: wrapping it again would repeat the
// branch in every tool list that carries the fields, for nothing.
const isNullable = (ast: SchemaAST.AST): boolean =>
  SchemaAST.isUnion(ast) && ast.types.some((member) => SchemaAST.isLiteral(member) && member.literal === null)

const changeField = (schema: Schema.Schema.Any) =>
  Schema.optional(isNullable(schema.ast) ? schema : Schema.NullOr(schema))

// What the tool list says beyond the store API's schema, where the product rules ask more than the type does.
const toolFields: Partial<Record<ProductFieldName, Schema.Schema.Any>> = {
  payment_plan: Schema.NullOr(
    Schema.Struct({
      ...PaymentPlan.fields,
      amount_cents: PaymentPlan.fields.amount_cents.annotations({
        description: `Each monthly part in cents, at least ${MIN_PRICE_CENTS}.`
      })
    }).annotations({ parseOptions: { onExcessProperty: "error" } })
  ).annotations(ProductFields.fields.payment_plan.ast.annotations),
  quantity_waitlist: ProductFields.fields.quantity_waitlist.annotations({
    description: "Take a waitlist once sold out (with quantity_limit)."
  })
}

/**
 * The product fields a store tool takes under `fields`: every field of `POST /products`, typed and described, so an
 * agent reads the names, values and limits from the tool list instead of guessing them. It decodes to the same
 * `ProductChanges` the store API's body does (left out: kept; `null`: the default).
 */
export const ProductFieldsInput: Schema.Schema<ProductChanges> = Schema.Struct(
  Object.fromEntries(
    Object.entries(ProductFields.fields).map(([name, schema]) => [
      name,
      changeField(toolFields[name as ProductFieldName] ?? schema)
    ])
  ) as {
    readonly [K in ProductFieldName]: Schema.optional<Schema.Schema<Exclude<ProductChanges[K], undefined>>>
  }
).annotations({ parseOptions: { onExcessProperty: "error" } })
