import type { Product } from '@svc/core/store-kit';

export interface DemoDocument {
  title: string;
  /** Markdown. */
  content: string;
  url: string;
}

export interface DemoKnowledge {
  name: string;
  products: Product[];
  documents: DemoDocument[];
}

/** Addresses under `.example`, a name reserved for documentation (RFC 2606): no real shop is ever linked. */
const SITE = 'https://northwind-outfitters.example';

/**
 * The knowledge base the server seeds on first run: a small fictional outdoor shop whose facts are specific
 * enough that a reply visibly comes from them (countries, days, prices), so the demo shows retrieval working.
 */
export const DEMO_KNOWLEDGE: DemoKnowledge = {
  name: 'Northwind Outfitters',
  products: [
    {
      id: 'prod_trailhead_2_tent',
      name: 'Trailhead 2 Backpacking Tent',
      price: 249,
      currency: 'USD',
      description:
        'Two-person, three-season backpacking tent weighing 1.6 kg, with two doors, two vestibules and a waterproof 3000 mm rainfly. Pitches in five minutes.',
      url: `${SITE}/products/trailhead-2-tent`,
    },
    {
      id: 'prod_basecamp_4_tent',
      name: 'Basecamp 4 Family Tent',
      price: 429,
      currency: 'USD',
      description:
        'Four-person family camping tent with 2.1 m of standing height, a separate sleeping cabin, a large porch and blackout fabric for late risers.',
      url: `${SITE}/products/basecamp-4-tent`,
    },
    {
      id: 'prod_summit_down_bag',
      name: 'Summit -7°C Down Sleeping Bag',
      price: 319,
      currency: 'USD',
      description:
        'Mummy sleeping bag filled with responsibly sourced 800-fill goose down, comfortable down to -1°C and rated to -7°C. Packs to the size of a loaf of bread.',
      url: `${SITE}/products/summit-down-bag`,
    },
    {
      id: 'prod_alpine_sleeping_pad',
      name: 'Alpine Insulated Sleeping Pad',
      price: 119,
      currency: 'USD',
      description: 'Inflatable sleeping pad, 7 cm thick with an R-value of 4.2 for cold nights, weighing 480 g.',
      url: `${SITE}/products/alpine-sleeping-pad`,
    },
    {
      id: 'prod_ridgeline_55_backpack',
      name: 'Ridgeline 55 L Backpack',
      price: 189,
      currency: 'USD',
      description:
        'Multi-day hiking backpack with an adjustable back length, a ventilated mesh back panel, hip-belt pockets and an integrated rain cover.',
      url: `${SITE}/products/ridgeline-55-backpack`,
    },
    {
      id: 'prod_stormshell_jacket',
      name: 'Stormshell Rain Jacket',
      price: 159,
      currency: 'USD',
      description:
        'Three-layer waterproof and breathable hiking jacket with taped seams, pit zips and a helmet-compatible hood. Regular fit, sizes XS to XXL.',
      url: `${SITE}/products/stormshell-jacket`,
    },
    {
      id: 'prod_granite_mid_boots',
      name: 'Granite Mid Hiking Boots',
      price: 179,
      currency: 'USD',
      description:
        'Waterproof leather hiking boots with a Vibram outsole and ankle support, for day hikes and multi-day treks. Sizes US 6 to 14, including half sizes.',
      url: `${SITE}/products/granite-mid-boots`,
    },
    {
      id: 'prod_ember_camp_stove',
      name: 'Ember Camp Stove',
      price: 69,
      currency: 'USD',
      description:
        'Compact gas camp stove that boils one litre of water in three and a half minutes, with a piezo igniter and a folding pot support.',
      url: `${SITE}/products/ember-camp-stove`,
    },
    {
      id: 'prod_lumen_400_headlamp',
      name: 'Lumen 400 Headlamp',
      price: 39,
      currency: 'USD',
      description:
        'Rechargeable 400-lumen headlamp with a red night mode, up to 40 hours of battery life and USB-C charging.',
      url: `${SITE}/products/lumen-400-headlamp`,
    },
  ],
  documents: [
    {
      title: 'Shipping and delivery',
      url: `${SITE}/help/shipping`,
      content: `# Shipping and delivery

We ship from our warehouse in Portland, Oregon to the United States, Canada, the United Kingdom, Australia and all European Union countries. We cannot ship to other countries at the moment.

Standard shipping within the contiguous United States takes 3-5 business days and costs $6.95, free on orders over $75. Express shipping takes 1-2 business days and costs $19.95. Deliveries to Alaska and Hawaii take 5-8 business days.

Orders to Canada arrive in 5-8 business days and shipping costs $14.95, free on orders over $150. Duties and taxes for Canada are paid at checkout, so there is nothing more to pay on delivery.

Orders to the United Kingdom, the European Union and Australia arrive in 7-12 business days and shipping costs $24.95. Import duties or VAT may be collected by the carrier on delivery.

Orders placed before 1 pm Pacific time on a business day leave the warehouse the same day. We ship with UPS in the United States and Canada and with DHL Express everywhere else.`,
    },
    {
      title: 'Returns and refunds',
      url: `${SITE}/help/returns`,
      content: `# Returns and refunds

You can return any unused item within 60 days of delivery for a full refund. Clothing and footwear must be unworn and unwashed, with the original tags attached.

To return an item, sign in to your account, open Orders, choose the order and select Return items. Without an account, use the returns page with your order number and email address. For orders delivered in the United States and Canada we email you a prepaid return label; international customers pay for return shipping.

Refunds go back to the original payment method within 5 business days after the returned item reaches our warehouse. Your bank may take another 3-10 days to show it.

To exchange an item for another size or colour, return it and place a new order, or ask our team to reserve the new size for you. Items marked Final Sale cannot be returned. Gifts can be returned for store credit without the buyer being told.`,
    },
    {
      title: 'Warranty and repairs',
      url: `${SITE}/help/warranty`,
      content: `# Warranty and repairs

All Northwind-branded gear has a lifetime warranty against defects in materials and workmanship. If a seam, zip or buckle fails through no fault of yours, we repair or replace the item free of charge.

Normal wear and tear, accidents and damage from improper care are not covered, but our repair workshop in Portland fixes them at a fair price. Tent and sleeping bag repairs usually take 2-3 weeks.

To make a warranty claim, email warranty@northwind-outfitters.example with your order number, a description of the problem and photos of the damage. No receipt is needed for Northwind-branded gear bought from us.

Products from other brands are covered by their manufacturer's warranty, usually 1 or 2 years; we handle the claim with the manufacturer for you.`,
    },
    {
      title: 'Size guide',
      url: `${SITE}/help/sizing`,
      content: `# Size guide

Our jackets and base layers come in sizes XS to XXL with a regular fit. If you plan to wear a fleece or a down jacket underneath your rain jacket, choose one size up.

Chest measurements for men's sizes are S 36-38 in, M 39-41 in, L 42-44 in and XL 45-47 in. Women's sizes are S 33-35 in, M 36-38 in and L 39-41 in.

Hiking boots run true to size. If you are between two sizes, take the half size up to leave room for thick socks and swollen feet on long days.

Not sure about a size? Exchanges for a different size are free within 60 days, as long as the item is unworn.`,
    },
    {
      title: 'Payment methods',
      url: `${SITE}/help/payment`,
      content: `# Payment methods

We accept Visa, Mastercard, American Express, Discover, PayPal, Apple Pay, Google Pay and Northwind gift cards. All prices are in US dollars.

Customers in the United States can pay in 4 interest-free instalments with Klarna on orders between $50 and $1,000.

Your card is authorised when you place the order and charged when the order ships. We do not accept cash on delivery, cheques or bank transfers.

Payments are processed by our payment provider over an encrypted connection; we never see or store your full card number.`,
    },
    {
      title: 'Contact and opening hours',
      url: `${SITE}/help/contact`,
      content: `# Contact and opening hours

Our customer service team is open Monday to Friday from 8 am to 6 pm and on Saturday from 9 am to 3 pm, Pacific time. We are closed on Sundays and US public holidays.

You can reach us by phone on +1 503 555 0142, by email at help@northwind-outfitters.example or in this chat. We answer emails within one business day.

Our flagship store at 1200 NW Everett Street, Portland, Oregon is open Monday to Saturday from 10 am to 7 pm and on Sunday from 11 am to 5 pm. The store offers free gear fitting.`,
    },
    {
      title: 'Order tracking',
      url: `${SITE}/help/order-tracking`,
      content: `# Order tracking

When your order leaves the warehouse we send a shipping confirmation email with a tracking number and a link to the carrier's tracking page. Tracking information can take up to 24 hours to appear.

You can also track your order in your account under Orders, or on the order status page with your order number (it starts with NW-) and your email address.

If tracking says your parcel was delivered but you cannot find it, check with your neighbours and wait one business day, as carriers sometimes mark parcels early. Then contact us and we will open a claim with the carrier.

You can change or cancel an order within 1 hour of placing it. After that it is already being packed, but you can still return it once it arrives.`,
    },
  ],
};
