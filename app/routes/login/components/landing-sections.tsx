import type { Href } from "#app/lib/href.ts";
import type { ReactNode } from "react";
import type { LandingStats } from "#contract/track-record.ts";
import { statTiles } from "#app/lib/track-record.ts";
import {
  BellIcon,
  CardOffIcon,
  EyeOffIcon,
  LayersIcon,
  ListCheckIcon,
  LockIcon,
  PulseIcon,
  ShieldIcon,
  SparklesIcon,
  StarIcon,
  TargetIcon,
} from "#app/components/signed-out-icons.tsx";

/** The marketing content of /login (docs/product.md#overview, #screens-login): statistics, features, testimonials, trust badges. */

/**
 * Four figures the app measured (the provider's landing statistics), each with what it covers; a
 * dash where nothing is measured yet. Never an invented number.
 */
export function Stats({ stats }: { stats: LandingStats | null }) {
  return (
    <section className="landing-stats" aria-label="PutSeller in numbers">
      <dl className="landing-stats__list">
        {statTiles(stats).map((stat) => (
          <div key={stat.label} className="landing-stats__item">
            <dt>{stat.label}</dt>
            <dd className="landing-stats__value">{stat.value}</dd>
            <dd className="landing-stats__detail">{stat.detail}</dd>
          </div>
        ))}
      </dl>
      <p className="landing-stats__more">
        <a href={"/track-record" satisfies Href}>See the track record: every recommended put, scored at expiry</a>
      </p>
    </section>
  );
}

const FEATURES: { icon: ReactNode; title: string; text: string }[] = [
  {
    icon: <ListCheckIcon />,
    title: "Your watchlist, your values",
    text: "Keep base and conservative intrinsic values and four buy levels for every stock you follow.",
  },
  {
    icon: <TargetIcon />,
    title: "Sell-put recommendations",
    text: "Strikes, expiries, monthly return and greeks for the stocks you choose, refreshed as the market moves.",
  },
  {
    icon: <SparklesIcon />,
    title: "Explained in plain words",
    text: "An AI explanation of each suggestion: why this strike, what the greeks say, what could go wrong.",
  },
  {
    icon: <PulseIcon />,
    title: "Live prices",
    text: "Prices and recommendations update on screen while you watch, without reloading.",
  },
  {
    icon: <BellIcon />,
    title: "Price and trade alerts",
    text: "Push notifications on your phone when a stock nears a buy level or a new trade is ready.",
  },
  {
    icon: <LayersIcon />,
    title: "A curated stock list",
    text: "A shared list of quality stocks by category, one tap away from your own watchlist.",
  },
];

export function Features() {
  return (
    <section className="landing-section" aria-labelledby="features-title">
      <h2 id="features-title" className="landing-section__title">
        Everything a put seller needs, on your phone
      </h2>
      <ul className="landing-features">
        {FEATURES.map((feature) => (
          <li key={feature.title} className="landing-feature">
            <span className="landing-feature__icon">{feature.icon}</span>
            <h3>{feature.title}</h3>
            <p>{feature.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

const TESTIMONIALS = [
  {
    quote:
      "I used to keep my buy levels in a spreadsheet. Now I see at a glance which puts are worth selling, and the explanations taught me to read the greeks.",
    name: "Maria L.",
    role: "Retired engineer, sells puts on dividend stocks",
    rating: 5,
  },
  {
    quote:
      "The alerts are the killer feature. I get a push when a stock I like drops to my level, and the strike suggestions are already there.",
    name: "James T.",
    role: "Options trader for 8 years",
    rating: 5,
  },
  {
    quote:
      "Clean, fast, and it works on my phone during lunch breaks. I'd like more chart tools, but for cash-secured puts it's the best I've found.",
    name: "Priya S.",
    role: "Part-time investor",
    rating: 4,
  },
] as const;

function StarRating({ rating }: { rating: number }) {
  return (
    <p className="star-rating" role="img" aria-label={`Rated ${rating} out of 5`}>
      {[1, 2, 3, 4, 5].map((n) => (
        <StarIcon key={n} width={18} height={18} strokeWidth={1.5} fill={n <= rating ? "currentColor" : "none"} />
      ))}
    </p>
  );
}

export function Testimonials() {
  return (
    <section className="landing-section" aria-labelledby="testimonials-title">
      <h2 id="testimonials-title" className="landing-section__title">
        Traders who sell puts with PutSeller
      </h2>
      <ul className="landing-testimonials">
        {TESTIMONIALS.map((t) => (
          <li key={t.name} className="landing-testimonial">
            <figure>
              <StarRating rating={t.rating} />
              <blockquote>
                <p>“{t.quote}”</p>
              </blockquote>
              <figcaption>
                <strong>{t.name}</strong>
                <span>{t.role}</span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </section>
  );
}

const TRUST_BADGES = [
  // Says what it measures (issue 46): TLS encrypts the way between browser and server, which is
  // not "end to end"; at rest only the passwords are protected, as scrypt hashes.
  {
    icon: <LockIcon />,
    label: "Encrypted in transit",
    text: "HTTPS (TLS) between your browser and us; passwords are kept only as scrypt hashes.",
  },
  { icon: <ShieldIcon />, label: "Your broker stays yours", text: "We never place trades or hold your money." },
  { icon: <EyeOffIcon />, label: "Private by default", text: "Your watchlist and levels are never sold or shared." },
  {
    icon: <CardOffIcon />,
    label: "No credit card required",
    text: "Start free and keep the free plan as long as you like.",
  },
] as const;

export function TrustBadges() {
  return (
    <section className="landing-section" aria-labelledby="trust-title">
      <h2 id="trust-title" className="landing-section__title">
        Built to be trusted
      </h2>
      <ul className="landing-trust">
        {TRUST_BADGES.map((badge) => (
          <li key={badge.label} className="landing-trust__badge">
            <span className="landing-trust__icon">{badge.icon}</span>
            <span>
              <strong>{badge.label}</strong>
              <span>{badge.text}</span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function LandingFooter() {
  return (
    <footer className="landing-footer">
      <p>
        PutSeller is a research tool, not investment advice. Options involve risk and are not suitable for every
        investor.
      </p>
      <p>© {new Date().getFullYear()} PutSeller</p>
    </footer>
  );
}
