import { sql, type Kysely } from "kysely";
import type { Migration, MigrationProvider } from "kysely/migration";

/**
 * Migrations live in code (not files read at run time) so the built image and the
 * tests apply exactly the same SQL. Append new ones; never edit an applied one.
 */
/** PGlite's query protocol takes one statement at a time, so a script is split on `;` at line ends. */
async function runScript(db: Kysely<unknown>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*$/m)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}

const migrations: Record<string, Migration> = {
  "0001-initial": {
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `
        CREATE TABLE users (
          id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          username text NOT NULL,
          email text NOT NULL,
          password_hash text,
          first_name text NOT NULL DEFAULT '',
          last_name text NOT NULL DEFAULT '',
          firebase_uid text UNIQUE,
          created_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE UNIQUE INDEX users_username_key ON users (lower(username));
        CREATE UNIQUE INDEX users_email_key ON users (lower(email));

        CREATE TABLE roles (
          id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          name text NOT NULL UNIQUE
        );
        CREATE TABLE role_permissions (
          role_id integer NOT NULL REFERENCES roles ON DELETE CASCADE,
          object text NOT NULL CHECK (object IN ('UIP_STOCK', 'USER_STOCK', 'BACKEND_CONFIG')),
          action text NOT NULL CHECK (action IN ('VIEW', 'CREATE', 'UPDATE', 'DELETE')),
          PRIMARY KEY (role_id, object, action)
        );
        CREATE TABLE user_roles (
          user_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
          role_id integer NOT NULL REFERENCES roles ON DELETE CASCADE,
          PRIMARY KEY (user_id, role_id)
        );

        CREATE TABLE categories (
          id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          name text NOT NULL UNIQUE,
          icon text NOT NULL CHECK (icon IN ('queen', 'avoid', 'hold', 'speculative', 'buy'))
        );

        CREATE TABLE stocks (
          id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          ticker text NOT NULL UNIQUE,
          name text NOT NULL,
          current_price double precision NOT NULL DEFAULT 0,
          updated_at timestamptz,
          next_earnings_date date
        );

        CREATE TABLE user_stocks (
          id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          user_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
          stock_id integer NOT NULL REFERENCES stocks,
          sort_order integer NOT NULL DEFAULT 0,
          active smallint NOT NULL DEFAULT 1,
          generate_recommendation boolean NOT NULL DEFAULT false,
          base_iv double precision NOT NULL DEFAULT 0,
          conservative_iv double precision NOT NULL DEFAULT 0,
          average_iv double precision GENERATED ALWAYS AS ((base_iv + conservative_iv) / 2) STORED,
          buy_level_one double precision NOT NULL DEFAULT 0,
          buy_level_two double precision NOT NULL DEFAULT 0,
          buy_level_three double precision NOT NULL DEFAULT 0,
          buy_level_four double precision NOT NULL DEFAULT 0,
          created_at timestamptz NOT NULL DEFAULT now(),
          UNIQUE (user_id, stock_id)
        );

        CREATE TABLE uip_stocks (
          id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          stock_id integer NOT NULL UNIQUE REFERENCES stocks,
          category_id integer NOT NULL REFERENCES categories,
          sort_order integer NOT NULL DEFAULT 0,
          active smallint NOT NULL DEFAULT 1,
          base_iv double precision NOT NULL DEFAULT 0,
          conservative_iv double precision NOT NULL DEFAULT 0,
          average_iv double precision GENERATED ALWAYS AS ((base_iv + conservative_iv) / 2) STORED,
          buy_level_one double precision NOT NULL DEFAULT 0,
          buy_level_two double precision NOT NULL DEFAULT 0,
          buy_level_three double precision NOT NULL DEFAULT 0,
          buy_level_four double precision NOT NULL DEFAULT 0,
          created_at timestamptz NOT NULL DEFAULT now()
        );

        CREATE TABLE uip_price_alerts (
          user_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
          uip_stock_id integer NOT NULL REFERENCES uip_stocks ON DELETE CASCADE,
          PRIMARY KEY (user_id, uip_stock_id)
        );

        CREATE TABLE price_history (
          stock_id integer NOT NULL REFERENCES stocks ON DELETE CASCADE,
          day date NOT NULL,
          open double precision NOT NULL,
          high double precision NOT NULL,
          low double precision NOT NULL,
          close double precision NOT NULL,
          volume bigint NOT NULL DEFAULT 0,
          atm_iv double precision,
          PRIMARY KEY (stock_id, day)
        );

        CREATE TABLE recommendation_runs (
          id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          stock_id integer NOT NULL REFERENCES stocks ON DELETE CASCADE,
          created_at timestamptz NOT NULL DEFAULT now(),
          inputs jsonb NOT NULL DEFAULT '{}'
        );

        CREATE TABLE trade_recommendations (
          id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          run_id integer NOT NULL REFERENCES recommendation_runs ON DELETE CASCADE,
          stock_id integer NOT NULL REFERENCES stocks ON DELETE CASCADE,
          option_identifier text NOT NULL,
          put_or_call text NOT NULL CHECK (put_or_call IN ('put', 'call')),
          expiration_date date NOT NULL,
          strike_price double precision NOT NULL,
          current_stock_price double precision NOT NULL,
          current_option_price double precision NOT NULL,
          option_weekly_low_price double precision NOT NULL,
          option_weekly_high_price double precision NOT NULL,
          calculated_monthly_roi double precision NOT NULL,
          implied_volatility double precision NOT NULL,
          historical_volatility double precision NOT NULL,
          delta double precision NOT NULL,
          theta double precision NOT NULL,
          vega double precision NOT NULL,
          volume integer NOT NULL DEFAULT 0,
          extra jsonb NOT NULL DEFAULT '{}',
          active smallint NOT NULL DEFAULT 1,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX trade_recommendations_active_stock ON trade_recommendations (stock_id) WHERE active = 1;

        CREATE TABLE devices (
          id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          user_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
          fcm_token text NOT NULL,
          device_type text NOT NULL DEFAULT 'web',
          browser text NOT NULL DEFAULT '',
          os text NOT NULL DEFAULT '',
          ip_address text NOT NULL DEFAULT 'Unknown',
          user_agent text NOT NULL DEFAULT '',
          app_version text NOT NULL DEFAULT '',
          notification_opt_in text NOT NULL DEFAULT '0' CHECK (notification_opt_in IN ('1', '0')),
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now(),
          UNIQUE (user_id, fcm_token)
        );

        CREATE TABLE notifications (
          id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          type text NOT NULL,
          title text NOT NULL,
          body text NOT NULL,
          action_required smallint NOT NULL DEFAULT 0,
          url text,
          created_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE TABLE user_notifications (
          id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          user_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
          notification_id integer NOT NULL REFERENCES notifications ON DELETE CASCADE,
          read smallint NOT NULL DEFAULT 0,
          created_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX user_notifications_user ON user_notifications (user_id, created_at DESC);

        CREATE TABLE backend_config (
          key text PRIMARY KEY,
          value text NOT NULL,
          updated_at timestamptz NOT NULL DEFAULT now()
        );
        INSERT INTO backend_config (key, value) VALUES
          ('auto_refresh_enabled', '0'),
          ('auto_trade_recommendation_generation_enabled', '0');

        CREATE TABLE password_resets (
          token_hash text PRIMARY KEY,
          user_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
          expires_at timestamptz NOT NULL,
          used_at timestamptz
        );

        CREATE TABLE mail_outbox (
          id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          to_address text NOT NULL,
          subject text NOT NULL,
          body_text text NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now(),
          sent_at timestamptz
        );

        CREATE TABLE idempotency_keys (
          user_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
          key text NOT NULL,
          request_hash text NOT NULL,
          status integer NOT NULL,
          response_body text NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (user_id, key)
        );

        CREATE TABLE app_secrets (
          name text PRIMARY KEY,
          value text NOT NULL
        );

        INSERT INTO roles (name) VALUES ('trader'), ('admin');
        INSERT INTO role_permissions (role_id, object, action)
          SELECT r.id, p.object, p.action FROM roles r
          JOIN (VALUES
            ('trader', 'USER_STOCK', 'DELETE'),
            ('admin', 'USER_STOCK', 'DELETE'),
            ('admin', 'UIP_STOCK', 'CREATE'),
            ('admin', 'UIP_STOCK', 'UPDATE'),
            ('admin', 'UIP_STOCK', 'DELETE'),
            ('admin', 'BACKEND_CONFIG', 'VIEW'),
            ('admin', 'BACKEND_CONFIG', 'CREATE'),
            ('admin', 'BACKEND_CONFIG', 'UPDATE'),
            ('admin', 'BACKEND_CONFIG', 'DELETE')
          ) AS p(role, object, action) ON p.role = r.name;
      `,
      );
    },
  },
  "0002-rate-limits": {
    // Attempt counters for sign-in, registration and password reset, shared by every provider process.
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `
        CREATE TABLE rate_limits (
          bucket text PRIMARY KEY,
          window_start timestamptz NOT NULL,
          hits integer NOT NULL
        );
        CREATE INDEX rate_limits_window_start ON rate_limits (window_start);
      `,
      );
    },
  },
  "0003-recommendation-run-index": {
    // Runs are kept for scoring and pile up (a run per flagged ticker every interval); the job looks up each ticker's latest.
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `CREATE INDEX recommendation_runs_stock_latest ON recommendation_runs (stock_id, created_at DESC);`,
      );
    },
  },
  "0004-recommendation-announced-index": {
    // Generation asks when a stock's users were last told about new recommendations; only those runs are indexed.
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `CREATE INDEX recommendation_runs_announced ON recommendation_runs (stock_id, created_at DESC) WHERE inputs @> '{"announced": true}';`,
      );
    },
  },
  "0005-users-tokens-valid-after": {
    // A password reset ends the sessions that knew the old password: tokens issued before this are refused.
    async up(db: Kysely<unknown>) {
      await runScript(db, `ALTER TABLE users ADD COLUMN tokens_valid_after timestamptz;`);
    },
  },
  "0030-track-record": {
    // Each recommended put once per option and New York day, copied out of trade_recommendations
    // soon after it was shown (runs may be pruned later) and scored after its expiry. The unique key
    // makes copying and the back-test idempotent; scoring only fills a row whose outcome is null.
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `
        CREATE TABLE track_record_picks (
          id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          source text NOT NULL CHECK (source IN ('live', 'backtest')),
          simulated boolean NOT NULL,
          recommendation_id integer,
          ticker text NOT NULL,
          option_symbol text NOT NULL,
          shown_day date NOT NULL,
          shown_at timestamptz NOT NULL,
          expiration date NOT NULL,
          strike double precision NOT NULL,
          premium double precision NOT NULL,
          premium_basis text NOT NULL CHECK (premium_basis IN ('bid', 'mid')),
          spot double precision NOT NULL,
          probability_of_profit double precision NOT NULL,
          close_day date,
          close_at_expiry double precision,
          outcome text CHECK (outcome IN ('expired_worthless', 'assigned')),
          pnl_per_share double precision,
          scored_at timestamptz,
          UNIQUE (option_symbol, shown_day)
        );
        CREATE INDEX track_record_picks_pending ON track_record_picks (expiration) WHERE outcome IS NULL;

        CREATE TABLE track_record_state (
          key text PRIMARY KEY,
          value text NOT NULL
        );
      `,
      );
    },
  },
  "0040-stocks-price-source": {
    // Which market source (simulated, yahoo, tradier) made the stored price, shown beside its age; null before this.
    async up(db: Kysely<unknown>) {
      await runScript(db, `ALTER TABLE stocks ADD COLUMN price_source text;`);
    },
  },
  "0006-revoked-tokens": {
    // Sign-out ends one session on the server: its token is refused until it would have expired anyway.
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `
        CREATE TABLE revoked_tokens (
          token_hash text PRIMARY KEY,
          expires_at timestamptz NOT NULL
        );
        CREATE INDEX revoked_tokens_expires_at ON revoked_tokens (expires_at);
      `,
      );
    },
  },
  "0010-trader-filters": {
    // Each trader's recommendation filters (ADR 0022); no row means the defaults.
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `CREATE TABLE trader_filters (
          user_id integer PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
          at_or_below_conservative boolean NOT NULL,
          delta_min double precision NOT NULL,
          delta_max double precision NOT NULL,
          dte_min integer NOT NULL,
          dte_max integer NOT NULL,
          min_bid double precision NOT NULL,
          min_open_interest integer NOT NULL,
          max_spread double precision NOT NULL,
          skip_earnings boolean NOT NULL,
          commission double precision NOT NULL,
          updated_at timestamptz NOT NULL DEFAULT now()
        );`,
      );
    },
  },
  "0020-trades": {
    // The wheel journal: each user's trades, one row per trade (README "The wheel journal").
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `
        CREATE TABLE trades (
          id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          user_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
          kind text NOT NULL CHECK (kind IN ('stock_buy', 'stock_sell', 'sell_to_open', 'buy_to_close', 'expire', 'assignment', 'exercise')),
          ticker text NOT NULL,
          option_type text CHECK (option_type IN ('put', 'call')),
          strike double precision,
          expiry date,
          quantity double precision NOT NULL CHECK (quantity > 0),
          price double precision NOT NULL CHECK (price >= 0),
          fees double precision NOT NULL CHECK (fees >= 0),
          traded_at timestamptz NOT NULL,
          rolled_from integer REFERENCES trades ON DELETE SET NULL,
          portfolio text NOT NULL DEFAULT 'Default Portfolio',
          strategy text,
          notes text,
          confidence integer,
          source text NOT NULL DEFAULT 'manual' CHECK (source IN ('manual', 'ibkr', 'tastytrade')),
          import_key text,
          created_at timestamptz NOT NULL DEFAULT now(),
          CHECK ((kind IN ('stock_buy', 'stock_sell')) = (option_type IS NULL AND strike IS NULL AND expiry IS NULL))
        );
        CREATE INDEX trades_user_time ON trades (user_id, traded_at);
        -- A line of a broker file is imported once per user.
        CREATE UNIQUE INDEX trades_user_import_key ON trades (user_id, import_key) WHERE import_key IS NOT NULL;
      `,
      );
    },
  },
  "0060-recommendation-columns": {
    // The fields every reader's selection and the top-line count read move out of the JSON `extra`
    // into real columns (ADR 0033): filtering and counting in SQL, smaller rows to write and retire.
    // Existing rows are filled in from their `extra`; fields older rows lack stay NULL, as they were absent.
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `
        ALTER TABLE trade_recommendations
          ADD COLUMN bid double precision,
          ADD COLUMN ask double precision,
          ADD COLUMN mid double precision,
          ADD COLUMN open_interest double precision,
          ADD COLUMN days_to_expiry double precision,
          ADD COLUMN annualized_roi double precision,
          ADD COLUMN breakeven double precision,
          ADD COLUMN collateral double precision,
          ADD COLUMN cushion double precision,
          ADD COLUMN probability_of_profit double precision,
          ADD COLUMN probability_of_profit_delta double precision,
          ADD COLUMN probability_of_assignment double precision,
          ADD COLUMN earnings_date date,
          ADD COLUMN earnings_before_expiry boolean,
          ADD COLUMN iv_rank double precision,
          ADD COLUMN iv_percentile double precision,
          ADD COLUMN iv_history_days double precision,
          ADD COLUMN rate double precision,
          ADD COLUMN intrinsic_value double precision,
          ADD COLUMN time_value double precision,
          ADD COLUMN spread double precision,
          ADD COLUMN run_buy_level text,
          ADD COLUMN run_below_conservative_iv boolean,
          ADD COLUMN default_score double precision,
          ADD COLUMN default_rank integer;
        UPDATE trade_recommendations SET
          bid = (extra->>'bid')::float8,
          ask = (extra->>'ask')::float8,
          mid = (extra->>'mid')::float8,
          open_interest = (extra->>'open_interest')::float8,
          days_to_expiry = (extra->>'days_to_expiry')::float8,
          annualized_roi = (extra->>'annualized_roi')::float8,
          breakeven = (extra->>'breakeven')::float8,
          collateral = (extra->>'collateral')::float8,
          cushion = (extra->>'cushion')::float8,
          probability_of_profit = (extra->>'probability_of_profit')::float8,
          probability_of_profit_delta = (extra->>'probability_of_profit_delta')::float8,
          probability_of_assignment = (extra->>'probability_of_assignment')::float8,
          earnings_date = (extra->>'earnings_date')::date,
          earnings_before_expiry = (extra->>'earnings_before_expiry')::boolean,
          iv_rank = (extra->>'iv_rank')::float8,
          iv_percentile = (extra->>'iv_percentile')::float8,
          iv_history_days = (extra->>'iv_history_days')::float8,
          rate = (extra->>'rate')::float8,
          intrinsic_value = (extra->>'intrinsic_value')::float8,
          time_value = (extra->>'time_value')::float8,
          spread = (extra->>'spread')::float8,
          run_buy_level = extra->>'buy_level',
          run_below_conservative_iv = (extra->>'below_conservative_iv')::boolean,
          default_score = (extra->>'score')::float8,
          default_rank = (extra->>'rank')::int,
          extra = '{}';
      `,
      );
    },
  },
  "0070-position-alerts": {
    // Alerts on open short puts (ADR 0034): each trader's thresholds (no row means the defaults),
    // and one row per (user, position, event) sent; the unique key decides who sends it.
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `
        CREATE TABLE alert_settings (
          user_id integer PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
          profit_share double precision NOT NULL,
          strike_distance double precision NOT NULL,
          earnings_days integer NOT NULL,
          updated_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE TABLE position_alerts (
          id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          position_key text NOT NULL,
          event text NOT NULL,
          notification_id integer REFERENCES notifications(id) ON DELETE SET NULL,
          created_at timestamptz NOT NULL DEFAULT now(),
          UNIQUE (user_id, position_key, event)
        );
      `,
      );
    },
  },
  "0090-recommendation-provenance": {
    // Where each put's figures came from and how old they are (docs/product.md#states-option-card),
    // as columns beside those of ADR 0033; rows stored before read as an unknown source.
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `
        ALTER TABLE trade_recommendations ADD COLUMN market_source text;
        ALTER TABLE trade_recommendations ADD COLUMN quoted_at timestamptz;
        ALTER TABLE trade_recommendations ADD COLUMN bid_source text CHECK (bid_source IN ('quote', 'last'));
      `,
      );
    },
  },
  "0100-active-recommendation-runs": {
    // Pool rows are written once and never updated (ADR 0040): which run is a stock's active set is
    // one narrow row per stock, flipped in the run's transaction, instead of an `active` flag
    // rewritten on every retired row. Existing active sets keep pointing at their run; the run_id
    // index serves the readers' join and the cascade when pruning deletes a run.
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `
        CREATE TABLE active_recommendation_runs (
          stock_id integer PRIMARY KEY REFERENCES stocks ON DELETE CASCADE,
          run_id integer NOT NULL UNIQUE REFERENCES recommendation_runs
        );
        INSERT INTO active_recommendation_runs (stock_id, run_id)
          SELECT stock_id, max(run_id) FROM trade_recommendations WHERE active = 1 GROUP BY stock_id;
        CREATE INDEX trade_recommendations_run ON trade_recommendations (run_id);
        DROP INDEX trade_recommendations_active_stock;
        ALTER TABLE trade_recommendations DROP COLUMN active;
      `,
      );
    },
  },
  "0110-trade-bounds": {
    // The bounds of contract/trade-bounds.ts, so the database and the contract refuse the same
    // trades (issue 40, finding 4; provider/db/trade-bounds.test.ts holds the numbers to the
    // contract's). NOT VALID: rows stored before are left as they are; new and changed rows are checked.
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `
        ALTER TABLE trades ADD CONSTRAINT trades_ticker_length CHECK (char_length(ticker) BETWEEN 1 AND 10) NOT VALID;
        ALTER TABLE trades ADD CONSTRAINT trades_option_ticker_length CHECK (option_type IS NULL OR char_length(ticker) <= 6) NOT VALID;
        ALTER TABLE trades ADD CONSTRAINT trades_strike_range CHECK (strike IS NULL OR strike BETWEEN 0.001 AND 99999.999) NOT VALID;
        ALTER TABLE trades ADD CONSTRAINT trades_expiry_range CHECK (expiry IS NULL OR expiry BETWEEN '2000-01-01' AND '2099-12-31') NOT VALID;
        ALTER TABLE trades ADD CONSTRAINT trades_price_max CHECK (price <= 9999999 AND fees <= 9999999) NOT VALID;
        ALTER TABLE trades ADD CONSTRAINT trades_quantity_max CHECK (quantity <= 100000) NOT VALID;
        ALTER TABLE trades ADD CONSTRAINT trades_traded_at_first CHECK (traded_at >= '1900-01-01T00:00:00Z') NOT VALID;
      `,
      );
    },
  },
  // ── wheel-rules (issue 41 item 6, ADR 0078) ──
  "0130-expiry-resolutions": {
    // Expiry resolves itself: a trade the provider recorded from the expiry day's close is marked,
    // so the journal says so and the trader can undo it; each expired position is resolved once
    // (unique per user and position, claimed in the transaction that records it), and an undone
    // record stays resolved: the job never records it again.
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `
        ALTER TABLE trades ADD COLUMN recorded_automatically boolean NOT NULL DEFAULT false;
        CREATE TABLE expiry_resolutions (
          id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          position_key text NOT NULL,
          outcome text NOT NULL CHECK (outcome IN ('expire', 'assignment', 'exercise', 'confirm')),
          close double precision NOT NULL CHECK (close > 0),
          trade_id integer REFERENCES trades(id) ON DELETE SET NULL,
          notification_id integer REFERENCES notifications(id) ON DELETE SET NULL,
          created_at timestamptz NOT NULL DEFAULT now(),
          UNIQUE (user_id, position_key)
        );
      `,
      );
    },
  },
  "0140-call-filters": {
    // Each trader's covered-call filters (docs/decisions/0079), checked here with the contract's bounds
    // (contract/covered-calls.ts CallFilters) so a row the app would refuse cannot be stored either.
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `CREATE TABLE call_filters (
          user_id integer PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
          at_or_above_basis boolean NOT NULL,
          at_or_above_base_value boolean NOT NULL,
          delta_min double precision NOT NULL CHECK (delta_min >= 0 AND delta_min <= 0.6),
          delta_max double precision NOT NULL CHECK (delta_max >= 0.01 AND delta_max <= 0.6),
          dte_min integer NOT NULL CHECK (dte_min BETWEEN 1 AND 90),
          dte_max integer NOT NULL CHECK (dte_max BETWEEN 1 AND 90),
          min_bid double precision NOT NULL CHECK (min_bid >= 0.05 AND min_bid <= 1000),
          min_open_interest integer NOT NULL CHECK (min_open_interest BETWEEN 0 AND 1000000),
          max_spread double precision NOT NULL CHECK (max_spread >= 0.01 AND max_spread <= 0.5),
          skip_earnings boolean NOT NULL,
          updated_at timestamptz NOT NULL DEFAULT now(),
          CHECK (delta_min <= delta_max),
          CHECK (dte_min <= dte_max)
        );`,
      );
    },
  },
  // --- capacity (issue 45) ---
  "0170-job-partitions": {
    // Scheduled per-ticker work shared by provider processes on one PostgreSQL server (ADR 0085): a
    // row per job and stock, claimed with FOR UPDATE SKIP LOCKED under a lease that expires when its
    // process dies; done in the same transaction as the work's own writes.
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `
        CREATE TABLE job_partitions (
          job text NOT NULL CHECK (job IN ('prices', 'recommendations')),
          stock_id integer NOT NULL REFERENCES stocks ON DELETE CASCADE,
          due_at timestamptz NOT NULL DEFAULT now(),
          leased_by text,
          leased_until timestamptz,
          claimed_at timestamptz,
          runs bigint NOT NULL DEFAULT 0 CHECK (runs >= 0),
          PRIMARY KEY (job, stock_id),
          CHECK ((leased_by IS NULL) = (leased_until IS NULL))
        );
        CREATE INDEX job_partitions_due ON job_partitions (job, due_at);
      `,
      );
    },
  },
  "0120-trades-dividends": {
    // Dividends and cash in lieu imported from broker files are journal entries of their own kind,
    // with no option fields, like share trades (docs/decisions/0074-broker-imports-keep-the-wheel-whole.md).
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `
        ALTER TABLE trades DROP CONSTRAINT trades_kind_check;
        ALTER TABLE trades ADD CONSTRAINT trades_kind_check CHECK (kind IN ('stock_buy', 'stock_sell', 'sell_to_open', 'buy_to_close', 'expire', 'assignment', 'exercise', 'dividend'));
        ALTER TABLE trades DROP CONSTRAINT trades_check;
        ALTER TABLE trades ADD CONSTRAINT trades_check CHECK ((kind IN ('stock_buy', 'stock_sell', 'dividend')) = (option_type IS NULL AND strike IS NULL AND expiry IS NULL));
      `,
      );
    },
  },
  "0150-capital-plan": {
    // Issue 42 (ADR 0081): each trader's capital settings, in the contract's bounds (a null capital
    // is "not set"; no row means the defaults); each stock's sector from the market source; and a
    // trader's own sector for a ticker, which wins over the source's.
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `
        CREATE TABLE capital_settings (
          user_id integer PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
          capital double precision CHECK (capital IS NULL OR (capital >= 1000 AND capital <= 100000000)),
          reserve_share double precision NOT NULL CHECK (reserve_share >= 0 AND reserve_share <= 0.9),
          ticker_limit double precision NOT NULL CHECK (ticker_limit >= 0.01 AND ticker_limit <= 1),
          sector_limit double precision NOT NULL CHECK (sector_limit >= 0.01 AND sector_limit <= 1),
          only_fitting boolean NOT NULL DEFAULT true,
          updated_at timestamptz NOT NULL DEFAULT now()
        );
        ALTER TABLE stocks ADD COLUMN sector text;
        CREATE TABLE trader_sectors (
          user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          ticker text NOT NULL,
          sector text NOT NULL CHECK (length(sector) BETWEEN 1 AND 40),
          PRIMARY KEY (user_id, ticker)
        );
      `,
      );
    },
  },
  "0121-trades-source-schwab": {
    // Trades imported from Schwab files (issue 43; docs/decisions/0074-broker-imports-keep-the-wheel-whole.md).
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `
        ALTER TABLE trades DROP CONSTRAINT trades_source_check;
        ALTER TABLE trades ADD CONSTRAINT trades_source_check CHECK (source IN ('manual', 'ibkr', 'tastytrade', 'schwab'));
      `,
      );
    },
  },
  "0160-recommendation-dividend-yield": {
    // The dividend yield each put was priced with, disclosed beside the rate on the option detail
    // (issue 46). Rows stored before take it from their run's inputs, which always held it.
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `
        ALTER TABLE trade_recommendations ADD COLUMN dividend_yield double precision;
        UPDATE trade_recommendations t SET dividend_yield = (r.inputs::jsonb->>'dividend_yield')::float8
          FROM recommendation_runs r WHERE r.id = t.run_id;
      `,
      );
    },
  },
  "0180-track-record-calls": {
    // The covered calls the screen suggested, one per trader, option and New York day, scored at
    // expiry beside the puts (docs/decisions/0088-track-record-scores-suggested-calls.md).
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `
        CREATE TABLE track_record_calls (
          id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          simulated boolean NOT NULL,
          ticker text NOT NULL,
          option_symbol text NOT NULL,
          shown_day date NOT NULL,
          shown_at timestamptz NOT NULL,
          expiration date NOT NULL,
          strike double precision NOT NULL CHECK (strike > 0),
          premium double precision NOT NULL CHECK (premium > 0),
          adjusted_basis double precision NOT NULL CHECK (adjusted_basis > 0),
          spot double precision NOT NULL,
          chance_called double precision CHECK (chance_called IS NULL OR (chance_called >= 0 AND chance_called <= 1)),
          close_day date,
          close_at_expiry double precision,
          outcome text CHECK (outcome IN ('called_away', 'kept')),
          pnl_per_share double precision,
          scored_at timestamptz,
          UNIQUE (user_id, option_symbol, shown_day)
        );
        CREATE INDEX track_record_calls_pending ON track_record_calls (expiration) WHERE outcome IS NULL;
      `,
      );
    },
  },
  "0190-trades-source-ofx": {
    // Trades imported from OFX/QFX investment statements (docs/decisions/0089-ofx-investment-statements.md).
    // 'schwab' is allowed too, so this CHECK keeps the Schwab import's rows whichever branch merges first.
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `
        ALTER TABLE trades DROP CONSTRAINT trades_source_check;
        ALTER TABLE trades ADD CONSTRAINT trades_source_check CHECK (source IN ('manual', 'ibkr', 'tastytrade', 'schwab', 'ofx'));
      `,
      );
    },
  },
  "0200-broker-snapshots": {
    // Issue 43: what a broker says the trader holds (contract/broker-positions.ts), one snapshot a
    // source, for the reconciliation screen. Positions are a JSON array the contract checks; the
    // database keeps its bound and the source list.
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `
        CREATE TABLE broker_snapshots (
          user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          source text NOT NULL CHECK (source IN ('tradier', 'ibkr', 'tastytrade', 'schwab', 'ofx')),
          as_of timestamptz NOT NULL,
          positions jsonb NOT NULL CHECK (jsonb_typeof(positions) = 'array' AND jsonb_array_length(positions) <= 2000),
          saved_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (user_id, source)
        );
      `,
      );
    },
  },
  "0240-trades-source-us-brokers": {
    // Trades imported from Fidelity, Robinhood, TD Ameritrade and E*TRADE files
    // (docs/decisions/0096-us-broker-csv-imports.md).
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `
        ALTER TABLE trades DROP CONSTRAINT trades_source_check;
        ALTER TABLE trades ADD CONSTRAINT trades_source_check
          CHECK (source IN ('manual', 'ibkr', 'tastytrade', 'schwab', 'ofx', 'fidelity', 'robinhood', 'tdameritrade', 'etrade'));
      `,
      );
    },
  },
  "0220-broker-connections": {
    // Issue 43: a trader's Tradier connection (docs/decisions/0075-broker-tokens-encrypted-at-rest.md).
    // The token is stored only as AES-256-GCM ciphertext ("v1.<key id>.<iv>.<tag>.<data>"); the row
    // holds the sync's claim (one sync a trader at a time, whichever process runs it; ADR 0093).
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `
        CREATE TABLE broker_connections (
          user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          broker text NOT NULL CHECK (broker IN ('tradier')),
          token_ciphertext text NOT NULL CHECK (token_ciphertext LIKE 'v1.%' AND char_length(token_ciphertext) <= 2000),
          account_number text CHECK (account_number ~ '^[A-Za-z0-9-]{1,40}$'),
          accounts jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(accounts) = 'array' AND jsonb_array_length(accounts) <= 100),
          connected_at timestamptz NOT NULL DEFAULT now(),
          last_synced_at timestamptz,
          last_result jsonb,
          last_error text CHECK (char_length(last_error) <= 500),
          sync_claimed_until timestamptz,
          PRIMARY KEY (user_id, broker)
        );
        CREATE INDEX broker_connections_due ON broker_connections (broker, last_synced_at) WHERE account_number IS NOT NULL;
      `,
      );
    },
  },
  "0221-trades-source-tradier": {
    // Trades a Tradier sync adds (docs/decisions/0093-tradier-sync-through-the-import.md).
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `
        ALTER TABLE trades DROP CONSTRAINT trades_source_check;
        ALTER TABLE trades ADD CONSTRAINT trades_source_check CHECK (source IN ('manual', 'ibkr', 'tastytrade', 'schwab', 'ofx', 'tradier'));
      `,
      );
    },
  },
  "0241-trades-source-every-broker": {
    // 0221 (Tradier) and 0240 (four US brokers) were written side by side, each listing the sources
    // it knew; applied in name order, 0240's list would drop 'tradier'. This one lists them all.
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `
        ALTER TABLE trades DROP CONSTRAINT trades_source_check;
        ALTER TABLE trades ADD CONSTRAINT trades_source_check
          CHECK (source IN ('manual', 'ibkr', 'tastytrade', 'schwab', 'ofx', 'fidelity', 'robinhood', 'tdameritrade', 'etrade', 'tradier'));
      `,
      );
    },
  },
  "0250-track-record-picks-rate": {
    // The T-bill rate the engine priced each put with, so the record sets the realised return against
    // T-bills over the same days (docs/decisions/0097-track-record-returns-on-collateral-days.md).
    // Null for picks copied before: they are read at the fallback rate the simulated market uses.
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `ALTER TABLE track_record_picks ADD COLUMN rate double precision CHECK (rate IS NULL OR (rate > -0.1 AND rate < 1));`,
      );
    },
  },
  "0260-trades-source-webull": {
    // Trades imported from Webull's orders file (docs/decisions/0095-webull-orders-and-expiries-from-the-close.md);
    // every source 0241 lists, and Webull.
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `
        ALTER TABLE trades DROP CONSTRAINT trades_source_check;
        ALTER TABLE trades ADD CONSTRAINT trades_source_check
          CHECK (source IN ('manual', 'ibkr', 'tastytrade', 'schwab', 'ofx', 'fidelity', 'robinhood', 'tdameritrade', 'etrade', 'tradier', 'webull'));
      `,
      );
    },
  },
  "0270-broker-snapshots-cash": {
    // The account's cash beside a broker's positions, to set against the cash the journal's short puts
    // commit (docs/decisions/0098-positions-files-and-broker-cash.md). Null: the source did not say.
    // numeric, not floating point: it is dollars and cents as the broker wrote them.
    async up(db: Kysely<unknown>) {
      await runScript(
        db,
        `ALTER TABLE broker_snapshots ADD COLUMN cash numeric(14, 2) CHECK (cash IS NULL OR cash BETWEEN -1000000000 AND 1000000000);`,
      );
    },
  },
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
