// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {UUPSUpgradeable} from "@openzeppelin/contracts/proxy/utils/UUPSUpgradeable.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {ERC1155Holder} from "@openzeppelin/contracts/token/ERC1155/utils/ERC1155Holder.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {LmsrMarket} from "../markets/LmsrMarket.sol";
import {IIntentRouter} from "./IIntentRouter.sol";

/// @title IntentRouter
/// @notice Executes EIP-712 signed trade intents on LMSR markets of one collateral; anyone may submit. Buys pull
/// the cost from the trader (ERC-20 approve to the router) and mint to the trader; sells pull outcome tokens
/// (setApprovalForAll to the router) and pay the trader. UUPS implementation used behind an ERC1967Proxy.
/// EIP-712 domain: name "IntentRouter", version "1", chainId of the chain, verifyingContract = the proxy.
contract IntentRouter is IIntentRouter, Initializable, UUPSUpgradeable, EIP712, ERC1155Holder, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    /// @notice EIP-712 type hash of TradeIntent.
    bytes32 public constant TRADE_INTENT_TYPEHASH = keccak256(
        "TradeIntent(address trader,address market,uint8 outcome,bool isBuy,uint256 amount,uint256 limit,uint256 deadline,uint256 nonce)"
    );
    /// @notice EIP-712 type hash of Leg.
    bytes32 public constant LEG_TYPEHASH = keccak256("Leg(address market,uint8 outcome,bool isBuy,uint256 amount,uint256 limit)");
    /// @notice EIP-712 type hash of BasketIntent.
    bytes32 public constant BASKET_INTENT_TYPEHASH = keccak256(
        "BasketIntent(address trader,Leg[] legs,uint256 deadline,uint256 nonce)Leg(address market,uint8 outcome,bool isBuy,uint256 amount,uint256 limit)"
    );

    /// @notice May upgrade the implementation.
    address public admin;
    /// @notice The collateral of every market this router serves.
    IERC20 public collateral;
    mapping(address trader => mapping(uint256 nonce => bool used)) private _used;

    constructor() EIP712("IntentRouter", "1") {
        _disableInitializers();
    }

    /// @notice Sets admin and collateral once (through the proxy).
    function initialize(address admin_, IERC20 collateral_) external initializer {
        admin = admin_;
        collateral = collateral_;
    }

    /// @notice Whether `trader` has used `nonce`.
    function nonceUsed(address trader, uint256 nonce) external view returns (bool) {
        return _used[trader][nonce];
    }

    /// @notice The EIP-712 digest a trader signs for `intent`.
    function tradeDigest(TradeIntent calldata intent) public view returns (bytes32) {
        return _hashTypedDataV4(keccak256(abi.encode(TRADE_INTENT_TYPEHASH, intent)));
    }

    /// @notice The EIP-712 digest a trader signs for `basket`.
    function basketDigest(BasketIntent calldata basket) public view returns (bytes32) {
        bytes32[] memory legHashes = new bytes32[](basket.legs.length);
        for (uint256 i; i < legHashes.length; ++i) legHashes[i] = keccak256(abi.encode(LEG_TYPEHASH, basket.legs[i]));
        return _hashTypedDataV4(
            keccak256(abi.encode(BASKET_INTENT_TYPEHASH, basket.trader, keccak256(abi.encodePacked(legHashes)), basket.deadline, basket.nonce))
        );
    }

    /// @notice Executes one signed trade; returns the cost paid (buy) or net proceeds (sell).
    function executeTradeIntent(TradeIntent calldata intent, bytes calldata signature) external nonReentrant returns (uint256 amount) {
        bytes32 digest = tradeDigest(intent);
        _consume(intent.trader, intent.nonce, intent.deadline, digest, signature);
        amount = _execute(digest, intent.trader, Leg(intent.market, intent.outcome, intent.isBuy, intent.amount, intent.limit));
    }

    /// @notice Executes every leg of a signed basket atomically; returns each leg's amount.
    function executeBasketIntent(BasketIntent calldata basket, bytes calldata signature) external nonReentrant returns (uint256[] memory amounts) {
        if (basket.legs.length == 0) revert RouterEmptyBasket();
        bytes32 digest = basketDigest(basket);
        _consume(basket.trader, basket.nonce, basket.deadline, digest, signature);
        amounts = new uint256[](basket.legs.length);
        for (uint256 i; i < amounts.length; ++i) amounts[i] = _execute(digest, basket.trader, basket.legs[i]);
    }

    function _consume(address trader, uint256 nonce, uint256 deadline, bytes32 digest, bytes calldata signature) private {
        if (block.timestamp > deadline) revert RouterExpired(deadline, block.timestamp);
        if (_used[trader][nonce]) revert RouterNonceUsed(trader, nonce);
        if (!SignatureChecker.isValidSignatureNow(trader, digest, signature)) revert RouterInvalidSignature(trader);
        _used[trader][nonce] = true;
    }

    function _execute(bytes32 digest, address trader, Leg memory leg) private returns (uint256 amount) {
        LmsrMarket market = LmsrMarket(leg.market);
        if (address(market.collateral()) != address(collateral)) revert RouterWrongCollateral(leg.market);
        if (leg.isBuy) {
            amount = market.quoteBuy(leg.outcome, leg.amount);
            if (amount > leg.limit) revert RouterLimitExceeded(amount, leg.limit);
            collateral.safeTransferFrom(trader, address(this), amount);
            collateral.forceApprove(address(market), amount);
            market.buy(leg.outcome, leg.amount, amount, trader);
        } else {
            (amount,) = market.quoteSell(leg.outcome, leg.amount);
            if (amount < leg.limit) revert RouterLimitExceeded(amount, leg.limit);
            market.outcomeToken().safeTransferFrom(trader, address(this), market.outcomeToken().tokenId(market.marketId(), leg.outcome), leg.amount, "");
            market.sell(leg.outcome, leg.amount, amount, trader);
        }
        emit IntentExecuted(digest, trader, leg.market, leg.outcome, leg.isBuy, leg.amount, amount);
    }

    function _authorizeUpgrade(address) internal view override {
        if (msg.sender != admin) revert RouterUnauthorized(msg.sender);
    }
}
