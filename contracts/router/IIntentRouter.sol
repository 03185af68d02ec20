// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IIntentRouter
/// @notice Types, events and errors of the signed-intent router (one per collateral, behind an ERC-1967 proxy).
interface IIntentRouter {
    /// @notice One signed trade. `amount` is shares; `limit` is the max cost (buy) or min proceeds (sell).
    struct TradeIntent {
        address trader;
        address market;
        uint8 outcome;
        bool isBuy;
        uint256 amount;
        uint256 limit;
        uint256 deadline;
        uint256 nonce;
    }

    /// @notice One leg of a basket.
    struct Leg {
        address market;
        uint8 outcome;
        bool isBuy;
        uint256 amount;
        uint256 limit;
    }

    /// @notice Several trades signed once; all legs execute or none.
    struct BasketIntent {
        address trader;
        Leg[] legs;
        uint256 deadline;
        uint256 nonce;
    }

    /// @notice A trade (or one leg of a basket; legs share the digest) was executed. `amount` is the cost paid
    /// (buy) or the net proceeds received (sell).
    event IntentExecuted(
        bytes32 indexed digest,
        address indexed trader,
        address indexed market,
        uint8 outcome,
        bool isBuy,
        uint256 shares,
        uint256 amount
    );

    /// @notice The intent's nonce was already used by the trader.
    error RouterNonceUsed(address trader, uint256 nonce);
    /// @notice The intent's deadline has passed.
    error RouterExpired(uint256 deadline, uint256 now_);
    /// @notice The signature is not the trader's.
    error RouterInvalidSignature(address trader);
    /// @notice The trade would cost more (buy) or pay less (sell) than the limit.
    error RouterLimitExceeded(uint256 amount, uint256 limit);
    /// @notice The market does not use this router's collateral.
    error RouterWrongCollateral(address market);
    /// @notice Only the admin.
    error RouterUnauthorized(address caller);
    /// @notice An empty basket.
    error RouterEmptyBasket();
}
